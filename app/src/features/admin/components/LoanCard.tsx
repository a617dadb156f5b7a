import type { WireLoan as AdminLoan } from "#domain/wire/loan";
import { StatusBadge } from "../../../components/StatusBadge";
import { ServicingBadge } from "../../../components/ServicingBadge";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import { LoanActions } from "./LoanActions";
import type { Decision } from "./LoanDecisionModal";
import { dateText, percentText } from "./money";
import { purposeText, usd } from "../../../lib/format";

export function LoanCard({ loan, onView, onDecide }: { loan: AdminLoan; onView: () => void; onDecide: (loan: AdminLoan, decision: Decision) => void }) {
  const who = `${loan.user.firstName} ${loan.user.lastName}`.trim() || loan.user.email;
  const tx = loan.mintTxHash ?? loan.nftTransactionHash;
  return (
    <article className="card admin-loan" data-testid="admin-loan" data-loan-id={loan._id}>
      <div>
        <div className="admin-loan__title">
          <strong>
            #{loan.loanNumber} · {usd(loan.amount)}
          </strong>
          <StatusBadge status={loan.status} />
          {loan.mintStatus !== "none" && <StatusBadge status={loan.mintStatus} label={`NFT ${loan.mintStatus}`} />}
          {loan.listingStatus !== "none" && <StatusBadge status={loan.listingStatus} label={loan.listingStatus} />}
          <ServicingBadge servicing={loan.servicing} testId="admin-loan-servicing" />
        </div>
        <div className="admin-loan__meta">
          <span>
            {who} ({loan.user.email})
          </span>
          <span>{purposeText(loan.purpose)}</span>
          <span>
            {percentText(loan.interestRate)} · {loan.termMonths} mo
          </span>
          <span>Requested {dateText(loan.requestDate)}</span>
          {tx ? (
            <span>
              Mint tx <ExplorerLink kind="tx" id={tx} />
            </span>
          ) : null}
        </div>
      </div>
      <LoanActions loan={loan} onView={onView} onDecide={onDecide} />
    </article>
  );
}
