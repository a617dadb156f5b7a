import { useState } from "react";
import { useSearchParams } from "react-router";
import type { WireLoan as AdminLoan } from "#domain/wire/loan";
import { LoanDecisionModal, type Decision } from "./LoanDecisionModal";
import { LoanDetailsModal } from "./LoanDetailsModal";

/**
 * The review dialogs of a page: details and approve/reject. `?loan={id}` (the bell's links) opens a loan's
 * details on arrival; closing removes it from the address.
 */
export function useLoanReview() {
  const [params, setParams] = useSearchParams();
  const [deciding, setDeciding] = useState<{ loan: AdminLoan; decision: Decision } | null>(null);
  const detailsId = params.get("loan");

  const openDetails = (id: string) =>
    setParams(
      (p) => {
        p.set("loan", id);
        return p;
      },
      { replace: true },
    );
  const closeDetails = () =>
    setParams(
      (p) => {
        p.delete("loan");
        return p;
      },
      { replace: true },
    );
  const decide = (loan: AdminLoan, decision: Decision) => {
    closeDetails();
    setDeciding({ loan, decision });
  };

  const modals = (
    <>
      {detailsId && !deciding && <LoanDetailsModal loanId={detailsId} onClose={closeDetails} onDecide={decide} />}
      {deciding && <LoanDecisionModal key={deciding.loan._id} loan={deciding.loan} decision={deciding.decision} onClose={() => setDeciding(null)} />}
    </>
  );
  return { openDetails, decide, modals };
}
