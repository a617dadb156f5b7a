import { useState } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { useRealtimeEvent } from "../../../lib/realtime/hooks";
import { useMyLoans } from "../api/getMyLoans";
import type { WireLoan as Loan } from "#domain/wire/loan";
import { loanKeys } from "../api/keys";
import { BorrowGate } from "../components/BorrowGate";
import { LoanDetailsModal } from "../components/LoanDetailsModal";
import { LoanListItem } from "../components/LoanListItem";
import { LoanRequestForm } from "../components/LoanRequestForm";
import "../loans.css";

/** The loan management page: the request form beside My Loan Requests (limit 50, polled every 30 s), with a details modal. */
export function LoansPage() {
  const queryClient = useQueryClient();
  const loans = useMyLoans({ limit: 50 });
  const [open, setOpen] = useState<Loan | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: loanKeys.all });
  useRealtimeEvent("loan:status", refresh);
  useRealtimeEvent("loan:funded", refresh);

  return (
    <div className="container page">
      <PageHeader
        title="Loan Management"
        subtitle="Request a loan and follow your requests."
        actions={
          <>
            <Link to="/loans/request" className="btn btn--secondary">
              Step-by-step wizard
            </Link>
            <Link to="/loans/my-loans" className="btn btn--ghost">
              My Loans
            </Link>
          </>
        }
      />
      <BorrowGate />
      <div className="grid-2 mt">
        <LoanRequestForm />
        <section className="card" aria-labelledby="my-requests">
          <h2 id="my-requests">My Loan Requests</h2>
          {loans.isPending ? (
            <p role="status">
              <Spinner /> Loading your loans…
            </p>
          ) : loans.isError ? (
            <div className="alert alert--danger" role="alert">
              Failed to load loans. Please try again.{" "}
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => void loans.refetch()}>
                Retry
              </button>
            </div>
          ) : loans.data.loans.length === 0 ? (
            <div className="empty">
              <h3>No loan requests yet</h3>
              <p>Your requests appear here as soon as you send one.</p>
            </div>
          ) : (
            <ul className="loan-list" data-testid="my-requests">
              {loans.data.loans.map((loan) => (
                <LoanListItem
                  key={loan._id}
                  loan={loan}
                  actions={
                    <button type="button" className="btn btn--ghost btn--sm" onClick={() => setOpen(loan)}>
                      Details
                    </button>
                  }
                />
              ))}
            </ul>
          )}
        </section>
      </div>
      {open && <LoanDetailsModal loan={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
