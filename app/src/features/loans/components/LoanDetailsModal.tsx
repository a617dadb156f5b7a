import { collateralTypeLabel } from "#domain/schemas/loans";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import type { WireLoan as Loan } from "#domain/wire/loan";
import { dateText } from "./money";
import { interestLine, purposeText, statusText, usd } from "../../../lib/format";
import { CollateralValue } from "../../../lib/collateral/CollateralValue";
import { StatusBadge } from "../../../components/StatusBadge";
import { ServicingBadge } from "../../../components/ServicingBadge";

/** The management page's details modal: the request as sent and what was decided. */
export function LoanDetailsModal({ loan, onClose }: { loan: Loan; onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div className="loan-modal" onClick={onClose}>
      <div className="card loan-modal__panel stack" role="dialog" aria-modal="true" aria-labelledby="loan-modal-title" onClick={(e) => e.stopPropagation()} data-testid="loan-modal">
        <div className="row gap" style={{ justifyContent: "space-between" }}>
          <h2 id="loan-modal-title">Loan #{loan.loanNumber}</h2>
          <StatusBadge status={loan.status} label={statusText(loan.status)} testId="loan-status" />
        </div>
        <ServicingBadge servicing={loan.servicing} testId="loan-modal-servicing" />
        <dl className="loan-facts">
          <div>
            <dt>Requested</dt>
            <dd>{usd(loan.amount)}</dd>
          </div>
          <div>
            <dt>Funded</dt>
            <dd>{usd(loan.principal)}</dd>
          </div>
          <div>
            <dt>Purpose</dt>
            <dd>{purposeText(loan.purpose)}</dd>
          </div>
          <div>
            <dt>Rate</dt>
            <dd>{loan.interestRate}%</dd>
          </div>
          <div>
            <dt>Term</dt>
            <dd>{loan.termMonths} months</dd>
          </div>
          <div>
            <dt>Monthly payment</dt>
            <dd>{usd(loan.monthlyPayment)}</dd>
          </div>
          <div>
            <dt>{interestLine(loan).label}</dt>
            <dd data-testid="loan-interest">{interestLine(loan).value}</dd>
          </div>
          <div>
            <dt>Request date</dt>
            <dd>{dateText(loan.requestDate)}</dd>
          </div>
          {loan.approvalDate && (
            <div>
              <dt>Approved</dt>
              <dd>{dateText(loan.approvalDate)}</dd>
            </div>
          )}
          {loan.rejectionDate && (
            <div>
              <dt>Rejected</dt>
              <dd>{dateText(loan.rejectionDate)}</dd>
            </div>
          )}
          {loan.nftTokenId && (
            <div>
              <dt>Note</dt>
              <dd>Note #{loan.nftTokenId}</dd>
            </div>
          )}
        </dl>
        {loan.rejectionReason && <p className="alert alert--danger">Reason: {loan.rejectionReason}</p>}
        {loan.collateral && (
          <p className="small">
            <strong>Collateral:</strong> {collateralTypeLabel(loan.collateral.type)}, <CollateralValue collateral={loan.collateral} /> — {loan.collateral.description}
          </p>
        )}
        <div className="row gap-sm">
          <Link to={`/loans/${loan._id}`} className="btn btn--primary">
            Open loan page
          </Link>
          <button ref={close} type="button" className="btn btn--ghost" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
