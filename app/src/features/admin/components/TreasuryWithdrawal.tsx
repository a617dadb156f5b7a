import { useState } from "react";
import { serverMessage } from "../../../lib/errors";
import { usd } from "../../../lib/format";
import { useRuntimeConfig } from "../../../lib/config";
import { txProgress } from "../../../lib/txProgress";
import { ReviewCard } from "../../../lib/review/ReviewCard";
import { useWithdrawCredits } from "../api/withdrawCredits";

const TEXTS = {
  withdraw: "Withdraw…",
  title: "Withdraw the treasury's repayments",
  sentence: "The server sends one transaction with the treasury key (withdrawCredits on the note contract): the repayments credited to the treasury's notes move into its balance.",
  confirm: "Confirm withdrawal",
  busy: "Withdrawing…",
  done: (amount: string) => `Withdrew ${usd(amount)} to the treasury`,
  failed: "Failed to withdraw repayments",
} as const;

/** Withdraw of the treasury's credits, after a review of the amount and the treasury that receives it. */
export function TreasuryWithdrawal({ credits, treasury }: { credits: string; treasury: string }) {
  const withdraw = useWithdrawCredits();
  const config = useRuntimeConfig().data;
  const [reviewing, setReviewing] = useState(false);
  const hasCredits = Number(credits) > 0;

  const confirm = () => {
    // The toast names the amount and links the transaction once the server has sent it.
    const progress = txProgress(config);
    progress.step(TEXTS.busy);
    withdraw.mutate(undefined, {
      onSuccess: ({ amount, txHash }) => {
        setReviewing(false);
        progress.done(TEXTS.done(amount), txHash);
      },
      onError: (e) => progress.fail(serverMessage(e, TEXTS.failed)),
    });
  };

  if (!reviewing) {
    return (
      <button type="button" className="btn btn--primary btn--sm" disabled={!hasCredits} onClick={() => setReviewing(true)}>
        {TEXTS.withdraw}
      </button>
    );
  }
  return (
    <ReviewCard
      title={TEXTS.title}
      lines={[
        { label: "Amount", value: usd(credits), testId: "review-amount" },
        { label: "Received by the treasury", value: <code>{treasury}</code>, testId: "review-recipient" },
      ]}
      confirmLabel={TEXTS.confirm}
      busyLabel={TEXTS.busy}
      busy={withdraw.isPending}
      onConfirm={confirm}
      onCancel={() => setReviewing(false)}
    >
      <p className="small">{TEXTS.sentence}</p>
    </ReviewCard>
  );
}
