import { parseUsd } from "#domain/money";
import type { ReactNode } from "react";
import type { WireLoan as Loan } from "#domain/wire/loan";
import { dateText } from "./money";
import { purposeText, statusText, usd } from "../../../lib/format";
import { StatusBadge } from "../../../components/StatusBadge";
import { ServicingBadge } from "../../../components/ServicingBadge";
import { COLLATERAL_STATE_TEXT, pieceTitle } from "../../../lib/nfts/collateralWords";

/** One loan in a list: amount, purpose, terms, status, and the caller's actions. */
export function LoanListItem({ loan, actions }: { loan: Loan; actions: ReactNode }) {
  const due = loan.status === "active" ? repaidShare(loan) : null;
  return (
    <li className="loan-item" data-testid="loan-item" data-loan-id={loan._id}>
      <div className="loan-item__main">
        <strong>
          {usd(loan.principal ?? loan.amount)} · {purposeText(loan.purpose)}
        </strong>
        <span className="small muted">
          Loan #{loan.loanNumber} · {loan.interestRate}% · {loan.termMonths} months · requested {dateText(loan.requestDate)}
        </span>
        {loan.collateral?.nft && (
          <span className="small muted" data-testid="loan-item-collateral">
            {/* A rejected request secured nothing: its piece was only offered. */}
            {loan.collateral.nft.state === "released" ? "Offered" : "Secured by"} {pieceTitle(loan.collateral.nft)} · {COLLATERAL_STATE_TEXT[loan.collateral.nft.state]}
          </span>
        )}
        <ServicingBadge servicing={loan.servicing} testId="loan-item-servicing" />
        {due !== null && (
          <span className="small muted">
            <span className="progress" style={{ display: "block", width: 160 }} aria-hidden="true">
              <span style={{ width: `${due}%` }} />
            </span>
            {due}% repaid
          </span>
        )}
      </div>
      <div className="row gap-sm">
        <StatusBadge status={loan.status} label={statusText(loan.status)} testId="loan-status" />
        {actions}
      </div>
    </li>
  );
}

/** Progress: totalRepaid / (amount + totalInterest), capped at 100%, for active loans. */
export function repaidShare(loan: Loan): number {
  const total = parseUsd(loan.principal ?? loan.amount) + parseUsd(loan.totalInterest);
  if (total <= 0n) return 0;
  return Math.min(100, Number((parseUsd(loan.totalRepaid) * 1000n) / total) / 10);
}
