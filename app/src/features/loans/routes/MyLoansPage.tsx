import { useState } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { displayUsd, parseUsd } from "#domain/money";
import { LOAN_STATUSES } from "#domain/statuses";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { useRealtimeEvent } from "../../../lib/realtime/hooks";
import { useDebounced } from "../../../lib/useDebounced";
import { useMyLoans, type MyLoansParams } from "../api/getMyLoans";
import { loanKeys } from "../api/keys";
import { BorrowGate } from "../components/BorrowGate";
import { LoanListItem } from "../components/LoanListItem";
import "../loans.css";

const SORTS = {
  newest: { sortBy: "requestDate", sortOrder: "desc" },
  oldest: { sortBy: "requestDate", sortOrder: "asc" },
  amountHigh: { sortBy: "amount", sortOrder: "desc" },
  amountLow: { sortBy: "amount", sortOrder: "asc" },
} as const;

/** My Loans: four stats over all the user's loans, then search, status filter and sort answered by the server. */
export function MyLoansPage() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState("all");
  const [sort, setSort] = useState<keyof typeof SORTS>("newest");
  const term = useDebounced(search.trim(), 300);
  const params: MyLoansParams = { limit: 50, status, search: term || undefined, ...SORTS[sort] };
  const all = useMyLoans({ limit: 100 });
  const list = useMyLoans(params);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: loanKeys.all });
  useRealtimeEvent("loan:status", refresh);
  useRealtimeEvent("loan:refinanced", refresh);
  useRealtimeEvent("loan:funded", refresh);

  const loans = all.data?.loans ?? [];
  const funded = loans.filter((l) => l.principal && ["active", "completed", "defaulted"].includes(l.status));
  const stats = [
    { label: "Total Loans", value: all.data ? String(all.data.pagination.totalLoans) : "—" },
    { label: "Active Loans", value: all.data ? String(loans.filter((l) => l.status === "active").length) : "—" },
    { label: "Total Borrowed", value: all.data ? displayUsd(funded.reduce((s, l) => s + parseUsd(l.principal!), 0n)) : "—" },
    { label: "Total Repaid", value: all.data ? displayUsd(loans.reduce((s, l) => s + parseUsd(l.totalRepaid), 0n)) : "—" },
  ];

  return (
    <div className="container page">
      <PageHeader
        title="My Loans"
        subtitle="Your loan requests, their status and repayments."
        actions={
          <Link to="/loans/request" className="btn btn--primary">
            Request New Loan
          </Link>
        }
      />
      <BorrowGate />
      <div className="grid-4 mt" data-testid="my-loans-stats">
        {stats.map((s) => (
          <div key={s.label} className="card stat">
            <div className="stat__label">{s.label}</div>
            <div className="stat__value">{s.value}</div>
          </div>
        ))}
      </div>
      <section className="card mt">
        <div className="loan-toolbar">
          <div className="field">
            <label htmlFor="loans-search">Search</label>
            <input id="loans-search" type="search" placeholder="Purpose or loan number" value={search} onChange={(e) => setSearch(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="loans-status">Status</label>
            <select id="loans-status" value={status} onChange={(e) => setStatus(e.target.value)}>
              <option value="all">All statuses</option>
              {LOAN_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s.charAt(0).toUpperCase() + s.slice(1)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="loans-sort">Sort by</label>
            <select id="loans-sort" value={sort} onChange={(e) => setSort(e.target.value as keyof typeof SORTS)}>
              <option value="newest">Newest first</option>
              <option value="oldest">Oldest first</option>
              <option value="amountHigh">Amount: high to low</option>
              <option value="amountLow">Amount: low to high</option>
            </select>
          </div>
        </div>
        {list.isPending ? (
          <p role="status">
            <Spinner /> Loading your loans…
          </p>
        ) : list.isError ? (
          <div className="alert alert--danger" role="alert">
            Failed to load loans. Please try again.{" "}
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => void list.refetch()}>
              Retry
            </button>
          </div>
        ) : list.data.loans.length === 0 ? (
          <div className="empty" data-testid="my-loans-empty">
            {all.data?.pagination.totalLoans ? (
              <>
                <h3>No loans match</h3>
                <p>Change the search or the status filter.</p>
              </>
            ) : (
              <>
                <h3>No loans yet</h3>
                <p>
                  <Link to="/loans/request">Request your first loan</Link>
                </p>
              </>
            )}
          </div>
        ) : (
          <ul className="loan-list" data-testid="my-loans-list">
            {list.data.loans.map((loan) => (
              <LoanListItem
                key={loan._id}
                loan={loan}
                actions={
                  <Link to={`/loans/${loan._id}`} className="btn btn--ghost btn--sm">
                    View Details
                  </Link>
                }
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
