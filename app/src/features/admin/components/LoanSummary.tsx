import { collateralTypeLabel } from "#domain/schemas/loans";
import type { WireLoan as AdminLoan } from "#domain/wire/loan";
import { StatusBadge } from "../../../components/StatusBadge";
import { dateText, percentText } from "./money";
import { purposeText, usd } from "../../../lib/format";
import { CollateralValue, LtvWarning } from "../../../lib/collateral/CollateralValue";
import { parseUsd } from "#domain/money";

/** Who asks for what: the facts an admin decides on. */
export function LoanSummary({ loan }: { loan: AdminLoan }) {
  const name = `${loan.user.firstName} ${loan.user.lastName}`.trim() || loan.user.email;
  return (
    <>
      <dl className="details admin-summary">
        <div>
          <dt>Borrower</dt>
          <dd>
            {name}
            <br />
            <span className="muted small">{loan.user.email}</span>
          </dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd>
            {usd(loan.amount)}
            {loan.principal && loan.principal !== loan.amount ? <span className="muted small"> (funded {usd(loan.principal)})</span> : null}
          </dd>
        </div>
        <div>
          <dt>Purpose</dt>
          <dd>{purposeText(loan.purpose)}</dd>
        </div>
        <div>
          <dt>Rate · Term</dt>
          <dd>
            {percentText(loan.interestRate)} · {loan.termMonths} months
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={loan.status} />
          </dd>
        </div>
        <div>
          <dt>KYC</dt>
          <dd>
            <StatusBadge status={loan.user.kycStatus === "approved" ? "approved" : (loan.user.kycStatus ?? "none")} label={loan.user.kycStatus ?? "none"} />
          </dd>
        </div>
        <div>
          <dt>Requested</dt>
          <dd>{dateText(loan.requestDate)}</dd>
        </div>
        {loan.collateral ? (
          <div>
            <dt>Collateral</dt>
            <dd>
              {collateralTypeLabel(loan.collateral.type)}: <CollateralValue collateral={loan.collateral} />
              <br />
              <span className="muted small">{loan.collateral.description}</span>
            </dd>
          </div>
        ) : null}
        {loan.rejectionReason ? (
          <div>
            <dt>Rejection reason</dt>
            <dd>{loan.rejectionReason}</dd>
          </div>
        ) : null}
      </dl>
      {loan.status === "pending" && <LtvWarning principal={parseUsd(loan.amount)} collateral={loan.collateral} />}
    </>
  );
}
