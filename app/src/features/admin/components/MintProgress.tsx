import type { WireLoan as AdminLoan } from "#domain/wire/loan";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import { usd } from "../../../lib/format";

type StepState = "waiting" | "working" | "done" | "failed";

function Step({ state, title, children, testId }: { state: StepState; title: string; children?: React.ReactNode; testId: string }) {
  const mark = { waiting: "○", working: "◌", done: "✓", failed: "✕" }[state];
  return (
    <li className={`mint-step mint-step--${state}`} data-testid={testId} data-state={state}>
      <span className="mint-step__mark" aria-hidden="true">
        {mark}
      </span>
      <div>
        <strong>{title}</strong>
        {children ? <div className="muted small">{children}</div> : null}
      </div>
    </li>
  );
}

const mintState = (loan: AdminLoan): StepState => (loan.mintStatus === "minted" ? "done" : loan.mintStatus === "failed" ? "failed" : loan.mintStatus === "minting" ? "working" : "waiting");
const listState = (loan: AdminLoan): StepState =>
  loan.listingStatus === "listed" ? "done" : loan.listingStatus === "failed" ? "failed" : loan.listingStatus === "listing" || loan.mintStatus === "minted" ? "working" : "waiting";

/** Where an approval stands: funded and minted in one transaction, then listed at par by the treasury's signature. */
export function MintProgress({ loan, sending }: { loan: AdminLoan | undefined; sending: boolean }) {
  if (!loan) return null;
  const approved = loan.status !== "pending" && loan.status !== "rejected";
  const mint = approved ? mintState(loan) : sending ? "working" : "waiting";
  const list = approved ? (loan.mintStatus === "minted" && !sending && loan.listingStatus === "none" ? "waiting" : listState(loan)) : "waiting";
  const mintTx = loan.mintTxHash ?? loan.nftTransactionHash;
  return (
    <ol className="mint-progress" aria-label="Approval progress" aria-live="polite" data-testid="mint-progress">
      <Step state={approved ? "done" : sending ? "working" : "waiting"} title="Approved" testId="step-approved">
        {approved ? `Funding ${usd(loan.principal ?? loan.amount)} to ${loan.borrowerWallet ?? "the borrower's wallet"}` : "Waiting for the decision"}
      </Step>
      <Step state={mint} title={mint === "done" ? `Minted note #${loan.nftTokenId ?? loan.loanNumber}` : `Minting note #${loan.loanNumber}`} testId="step-minted">
        {mintTx ? (
          <>
            Transaction <ExplorerLink kind="tx" id={mintTx} testId="mint-tx-link" />
          </>
        ) : mint === "working" ? (
          "Sending the origination…"
        ) : null}
        {mint === "failed" && loan.mintError ? <span className="text-danger"> {loan.mintError}</span> : null}
      </Step>
      <Step state={list} title={list === "done" ? "Listed on the marketplace at par" : "Listing on the marketplace"} testId="step-listed">
        {/* Since signed orders the treasury lists by a signature the API stores: no transaction (older listings keep theirs). */}
        {loan.listingTxHash ? (
          <>
            Transaction <ExplorerLink kind="tx" id={loan.listingTxHash} testId="listing-tx-link" />
          </>
        ) : list === "done" ? (
          "Signed by the treasury at 100% of par: no transaction, no gas"
        ) : list === "working" ? (
          "Signing the listing…"
        ) : null}
        {list === "failed" && loan.listingError ? <span className="text-danger"> {loan.listingError}</span> : null}
      </Step>
    </ol>
  );
}
