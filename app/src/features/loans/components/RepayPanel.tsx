import { useState } from "react";
import { usePublicClient } from "wagmi";
import { loanNoteAbi } from "#domain/abis";
import { parseUsd } from "#domain/money";
import { payoffParts, type PayoffParts } from "#domain/payoffParts";
import { useRuntimeConfig } from "../../../lib/config";
import { ReviewStep } from "../../../lib/wallet/ReviewStep";
import { useConnectModal } from "@rainbow-me/rainbowkit";
import { isAxiosError } from "axios";
import { displayUsd, formatUsdAmount } from "#domain/money";
import { serverMessage } from "../../../lib/errors";
import { shortAddress } from "../../../lib/format";
import { DevWalletPicker } from "../../../lib/wallet/DevWalletPicker";
import type { WireLoan as Loan } from "#domain/wire/loan";
import { prepareRepayment } from "../api/prepareRepayment";
import { loanTerms, type installments } from "./ScheduleTable";
import { txProgress } from "../../../lib/txProgress";
import { walletErrorMessage, WalletStepError } from "../../../lib/wallet/txError";
import { useWalletSender } from "../../../lib/wallet/useWalletSender";

type Rows = ReturnType<typeof installments>["rows"];

type Mode = "installment" | "payoff" | "pastDue";

/**
 * What the review shows before a repayment: the amount; for a payoff the contract's own figure and its parts; for
 * what is past due the contract's own figures, installments and late fees apart.
 */
interface Review {
  mode: Mode;
  amount: bigint;
  parts?: PayoffParts;
  /** Late fees inside a payoff's amount. */
  fees?: bigint;
  pastDue?: { installments: bigint; fees: bigint; feeCount: number };
}

/**
 * Repay the next installment or everything: the API checks the amount against the note and answers the permit,
 * the wallet signs it, the API answers the repayWithPermit call, the wallet sends it: one transaction.
 */
/** Micro-dollars rounded to the cent the way displayUsd shows them. */
const cents = (micro: bigint): bigint => (micro < 0n ? -cents(-micro) : ((micro + 5_000n) / 10_000n) * 10_000n);

/**
 * The payoff's parts as review lines: principal balance + interest accrued − paid ahead (or + installments overdue).
 * The interest line is what is left of the amount shown, so the lines add up to it to the cent.
 */
function payoffLines(amount: bigint, parts: PayoffParts, fees: bigint) {
  const accrued = cents(amount) - cents(fees) - cents(parts.balance) + cents(parts.ahead);
  return [
    ...(fees > 0n ? [{ label: "Late fees owed", value: displayUsd(fees), testId: "review-late-fees" }] : []),
    { label: "Principal balance this period", value: displayUsd(parts.balance), testId: "review-principal" },
    { label: parts.day ? `Interest accrued (day ${parts.day} of 30)` : "Interest accrued", value: displayUsd(accrued > 0n ? accrued : 0n), testId: "review-accrued" },
    parts.ahead >= 0n
      ? { label: "Less paid ahead of the schedule", value: `−${displayUsd(parts.ahead)}`, testId: "review-ahead" }
      : { label: "Plus installments due and unpaid", value: displayUsd(-parts.ahead), testId: "review-overdue" },
  ];
}

/** What is past due as review lines: the installments fallen due and unpaid, the late fees apart, and their total. */
function pastDueLines({ installments, fees, feeCount }: NonNullable<Review["pastDue"]>) {
  return [
    { label: "Installments past due", value: displayUsd(installments), testId: "review-installments" },
    { label: feeCount > 1 ? `Late fees (${feeCount} installments)` : "Late fee", value: displayUsd(fees), testId: "review-late-fees" },
  ];
}

const DONE: Record<Mode, (index: number) => string> = {
  installment: (index) => `Installment ${index} paid`,
  payoff: () => "Loan paid off",
  pastDue: () => "Everything past due is paid: the loan is current",
};

export default function RepayPanel({ loan, rows, onPaid }: { loan: Loan; rows: Rows; onPaid: (hash: string) => void }) {
  const wallet = useWalletSender({ requireVerifiedWallet: false });
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const [busy, setBusy] = useState<Mode | null>(null);
  const [error, setError] = useState("");
  const [review, setReview] = useState<Review | null>(null);
  const client = usePublicClient();
  const config = useRuntimeConfig().data;
  const loanNote = config?.contracts?.loanNote;
  const next = rows.find((r) => r.state !== "paid");
  if (!next) return null;
  const pastDueNow = loan.status === "active" && loan.servicing ? parseUsd(loan.servicing.amountPastDue) : 0n;
  const tokenId = BigInt(loan.nftTokenId ?? 0);

  /** What is past due is reviewed at the contract's own figures for now: its amount due and the late fees in it. */
  const reviewPastDue = async () => {
    const contract = { address: loanNote as `0x${string}`, abi: loanNoteAbi } as const;
    const [amount, [fees, count]] = await Promise.all([
      client!.readContract({ ...contract, functionName: "amountDueNow", args: [tokenId] }),
      client!.readContract({ ...contract, functionName: "lateFeesOf", args: [tokenId] }),
    ]);
    setReview({ mode: "pastDue", amount, pastDue: { installments: amount - fees, fees, feeCount: Number(count) } });
  };

  /** A payoff is reviewed at the contract's own payoffAmount for today, not an estimate. */
  const openReview = async (mode: Mode) => {
    setError("");
    if (mode === "installment") return setReview({ mode, amount: next.owed });
    if (mode === "pastDue") return reviewPastDue().catch((e) => setError(walletErrorMessage(e, "Could not read what is past due from the loan note")));
    try {
      const contract = { address: loanNote as `0x${string}`, abi: loanNoteAbi } as const;
      const [amount, [fees], block] = await Promise.all([
        client!.readContract({ ...contract, functionName: "payoffAmount", args: [tokenId] }),
        client!.readContract({ ...contract, functionName: "lateFeesOf", args: [tokenId] }),
        client!.getBlock(),
      ]);
      // The parts are computed at the chain's time, the clock the contract's figure uses.
      const terms = loanTerms(loan);
      setReview({ mode, amount, fees, parts: terms ? payoffParts(terms, parseUsd(loan.totalRepaid), block.timestamp) : undefined });
    } catch (e) {
      setError(walletErrorMessage(e, "Could not read today's payoff amount from the loan note"));
    }
  };

  /** Pays exactly what the review showed. */
  const pay = async (shown: Review) => {
    const { mode, amount: reviewed } = shown;
    setReview(null);
    setBusy(mode);
    setError("");
    const progress = txProgress(config);
    let hash: string | undefined;
    try {
      const payer = await wallet.ready();
      progress.step("Checking the amount with the loan's schedule…");
      const amount = formatUsdAmount(reviewed);
      const installmentNumber = mode === "installment" ? next.index : undefined;
      const offer = await prepareRepayment(loan._id, { amount, installmentNumber, walletAddress: payer });
      if (!offer.permit) throw new WalletStepError("The server did not answer a permit to sign");
      // A fee that came after the review would take part of the payment and leave the loan late: review again.
      if (shown.pastDue && parseUsd(offer.lateFeesTaken) !== shown.pastDue.fees) throw new WalletStepError("A late fee applied since your review: review what is past due again");
      progress.step(`Sign the permit for ${displayUsd(BigInt(offer.permit.message.value))} in your wallet…`);
      const signature = await wallet.signPermit(offer.permit);
      const ready = await prepareRepayment(loan._id, { amount, installmentNumber, walletAddress: payer, signature, deadline: offer.deadline });
      if (!ready.call) throw new WalletStepError("The server did not answer the repayment call");
      progress.step("Confirm the repayment in your wallet…");
      hash = await wallet.send(ready.call);
      progress.done(DONE[mode](next.index), hash);
      onPaid(hash);
    } catch (e) {
      const message = isAxiosError(e) ? serverMessage(e, "The repayment failed") : walletErrorMessage(e, "The repayment failed");
      setError(message);
      progress.fail(message, (e as WalletStepError)?.hash ?? hash);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="stack" data-testid="repay-panel">
      {!wallet.isConnected ? (
        <div className="stack">
          <DevWalletPicker />
          <div>
            <button type="button" className="btn btn--secondary" onClick={() => openConnectModal?.()} disabled={connectModalOpen}>
              {connectModalOpen ? "Connecting Wallet..." : "Connect Wallet"}
            </button>{" "}
            <span className="small muted">Any wallet holding the test dollars can repay.</span>
          </div>
        </div>
      ) : (
        <p className="small muted">
          Paying from <code>{shortAddress(wallet.address)}</code>: one permit signature, then one transaction.
        </p>
      )}
      {review ? (
        <ReviewStep
          title={review.mode === "payoff" ? "Review the payoff" : review.mode === "pastDue" ? "Review what is past due" : `Review installment ${next.index}`}
          lines={[
            ...(review.pastDue ? pastDueLines(review.pastDue) : []),
            { label: review.mode === "payoff" ? "You pay today" : review.mode === "pastDue" ? "Total past due, you pay" : "You pay", value: displayUsd(review.amount), testId: "review-amount" },
            { label: "To", value: <>the loan note contract, which credits the note's holder</>, testId: "review-to" },
            { label: "From", value: <code>{shortAddress(wallet.address)}</code> },
            { label: "Your wallet signs", value: `a permit for ${displayUsd(review.amount)} to the loan note contract (no gas), then one transaction that repays it`, testId: "review-wallet" },
            ...(review.mode === "payoff" && review.parts ? payoffLines(review.amount, review.parts, review.fees ?? 0n) : []),
          ]}
          payer={wallet.address}
          pays={review.amount}
          confirmLabel={review.mode === "payoff" ? `Confirm and pay off ${displayUsd(review.amount)}` : `Confirm and pay ${displayUsd(review.amount)}`}
          onConfirm={() => void pay(review)}
          onCancel={() => setReview(null)}
        >
          {review.mode === "pastDue" && (
            <p className="small muted" data-testid="review-why">
              The loan note's own figures for now. A payment pays the late fees first, then the installments in order; paying this total makes the loan current again.
            </p>
          )}
          {review.mode === "payoff" && (
            <p className="small muted" data-testid="review-why">
              This is the loan note's own payoff amount for today. It is not the remaining balance of {displayUsd(parseUsd(loan.remainingBalance))}: a payoff settles the principal balance plus only
              the interest accrued in the current period{review.parts?.day ? ` (day ${review.parts.day} of 30)` : ""}, less what was paid ahead of the schedule (an installment paid early already
              carried its period's whole interest). No penalty.
            </p>
          )}
        </ReviewStep>
      ) : (
        <div className="row gap-sm">
          {/* Behind schedule, one installment would go to late fees first and leave the loan late: the cure is the step offered. */}
          {pastDueNow > 0n ? (
            <button type="button" className="btn btn--primary" disabled={!wallet.isConnected || busy !== null} onClick={() => void openReview("pastDue")} data-testid="repay-past-due">
              {busy === "pastDue" ? "Repaying…" : `Pay what is past due (${displayUsd(pastDueNow)})`}
            </button>
          ) : (
            <button type="button" className="btn btn--primary" disabled={!wallet.isConnected || busy !== null} onClick={() => void openReview("installment")} data-testid="repay-installment">
              {busy === "installment" ? "Repaying…" : `Pay installment ${next.index} (${displayUsd(next.owed)})`}
            </button>
          )}
          <button type="button" className="btn btn--secondary" disabled={!wallet.isConnected || busy !== null} onClick={() => void openReview("payoff")} data-testid="repay-payoff">
            {busy === "payoff" ? "Paying off…" : "Pay off the loan"}
          </button>
        </div>
      )}
      <p className="small muted">Early payoff costs the principal outstanding plus the interest of the current period, with no penalty. The note is burned once it is paid.</p>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
