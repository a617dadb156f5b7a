import { displayUsd } from "#domain/money";
import { pledgeDescription } from "../../../lib/nfts/collateralWords";
import type { WireLoan } from "#domain/wire/loan";
import { LtvWarning } from "../../../lib/collateral/CollateralValue";
import { ReviewCard } from "../../../lib/review/ReviewCard";

const TEXTS = {
  title: (loanNumber: string | number | null) => `Approve loan #${loanNumber ?? ""}`,
  principal: "Principal paid",
  recipient: "Paid to (the borrower's verified wallet)",
  sends: "The server sends",
  sendsWhat: "one transaction with the originator key: the treasury's dollars fund the loan, the note is minted to the treasury, then listed at 100% of par by a signature (no gas)",
  escrow: (piece: string) => `The pledged ${piece} moves from the borrower's wallet into the note contract's escrow in the same transaction; the final payment returns it.`,
  confirm: "Confirm approval",
  busy: "Approving…",
} as const;

/** What an approval moves and to whom, restated before the server sends it: the principal, the verified wallet, the escrow. */
export function ApprovalReview({
  loan,
  principal,
  wallet,
  busy,
  onConfirm,
  onCancel,
}: {
  loan: WireLoan;
  /** Micro-dollars the treasury pays the borrower. */
  principal: bigint;
  wallet: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const nft = loan.collateral?.nft;
  const piece = nft ? pledgeDescription(nft) : null;
  return (
    <ReviewCard
      title={TEXTS.title(loan.loanNumber)}
      lines={[
        { label: TEXTS.principal, value: displayUsd(principal), testId: "approval-principal" },
        { label: TEXTS.recipient, value: <code>{wallet}</code>, testId: "approval-recipient" },
        { label: TEXTS.sends, value: TEXTS.sendsWhat },
      ]}
      confirmLabel={TEXTS.confirm}
      busyLabel={TEXTS.busy}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <LtvWarning principal={principal} collateral={loan.collateral} testId="approval-ltv-warning" />
      {piece && (
        <p className="small" data-testid="approval-escrow">
          {TEXTS.escrow(piece)}
        </p>
      )}
    </ReviewCard>
  );
}
