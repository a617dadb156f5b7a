import { useLoanDetails } from "../api/getLoanDetails";
import type { WireLoan as AdminLoan } from "#domain/wire/loan";
import { Modal } from "./Modal";
import { LoanSummary } from "./LoanSummary";
import { CollateralReview } from "./CollateralReview";
import { MintProgress } from "./MintProgress";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import { dateTimeText } from "./money";
import { usd } from "../../../lib/format";
import { Spinner } from "../../../components/Spinner";
import { ServicingBadge } from "../../../components/ServicingBadge";
import type { Decision } from "./LoanDecisionModal";

/** One loan in full: summary, repayments, its note's progress and its timeline (GET /loans/admin/requests/{id}). */
export function LoanDetailsModal({ loanId, onClose, onDecide }: { loanId: string; onClose: () => void; onDecide: (loan: AdminLoan, decision: Decision) => void }) {
  const { data: loan, isLoading, isError, refetch } = useLoanDetails(loanId);
  return (
    <Modal title={loan ? `Loan #${loan.loanNumber}` : "Loan details"} onClose={onClose} wide testId="loan-details">
      {isLoading ? (
        <div className="center">
          <Spinner />
        </div>
      ) : isError || !loan ? (
        <div className="alert alert--danger" role="alert">
          Failed to fetch loan details{" "}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void refetch()}>
            Retry
          </button>
        </div>
      ) : (
        <>
          <LoanSummary loan={loan} />
          <CollateralReview loan={loan} />
          {loan.status !== "pending" && loan.status !== "rejected" && (
            <>
              <h3 className="section-title">Note</h3>
              <MintProgress loan={loan} sending={false} />
              <dl className="details admin-summary">
                <div>
                  <dt>Monthly payment</dt>
                  <dd>{usd(loan.monthlyPayment)}</dd>
                </div>
                <div>
                  <dt>Total repaid</dt>
                  <dd>{usd(loan.totalRepaid)}</dd>
                </div>
                <div>
                  <dt>Remaining</dt>
                  <dd>{usd(loan.remainingBalance)}</dd>
                </div>
                <div>
                  <dt>Payments</dt>
                  <dd>{loan.servicing ? <ServicingBadge servicing={loan.servicing} testId="admin-loan-servicing" /> : "—"}</dd>
                </div>
                <div>
                  <dt>Performance</dt>
                  <dd>{loan.performance ?? "—"}</dd>
                </div>
              </dl>
            </>
          )}
          {loan.adminNotes ? (
            <p className="small">
              <strong>Admin notes:</strong> {loan.adminNotes}
            </p>
          ) : null}
          {loan.timeline?.length ? (
            <>
              <h3 className="section-title">Timeline</h3>
              <ol className="admin-timeline">
                {loan.timeline.map((t, i) => (
                  <li key={i}>
                    <strong>{t.action.replace(/_/g, " ")}</strong>{" "}
                    <span className="muted small">
                      {dateTimeText(t.at)}
                      {t.by?.email ? ` · ${t.by.email}` : ""}
                    </span>
                    {t.notes ? <div className="small">{t.notes}</div> : null}
                    {t.txHash ? (
                      <div className="small">
                        <ExplorerLink kind="tx" id={t.txHash} />
                      </div>
                    ) : null}
                  </li>
                ))}
              </ol>
            </>
          ) : null}
          {loan.status === "pending" && (
            <div className="row gap mt">
              <button type="button" className="btn btn--primary btn--sm" onClick={() => onDecide(loan, "approve")}>
                Approve
              </button>
              <button type="button" className="btn btn--danger-ghost btn--sm" onClick={() => onDecide(loan, "reject")}>
                Reject
              </button>
            </div>
          )}
        </>
      )}
    </Modal>
  );
}
