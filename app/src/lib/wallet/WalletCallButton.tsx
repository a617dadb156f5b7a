import { useState } from "react";
import type { TransactionReceipt } from "viem";
import { useRuntimeConfig } from "../config";
import { txProgress } from "../txProgress";
import { WalletBar } from "./WalletBar";
import { walletErrorMessage, WalletStepError } from "./txError";
import { useWalletSender } from "./useWalletSender";
import { ReviewCard, type ReviewLine } from "../review/ReviewCard";

interface Props {
  /** The one call to send, as the API or the page built it. */
  call: { to: `0x${string}`; data: `0x${string}`; value: string };
  /** The words of each step: asking the wallet, done, and the fallback of a failure. */
  words: { confirm: string; done: string; failed: string };
  label: { idle: string; busy: string };
  /** What the review says before the wallet is asked: its title and lines (what is sent, to whom, what it costs). */
  review: { title: string; lines: ReviewLine[]; confirm: string };
  testId: string;
  className?: string;
  afterReceipt?: (receipt: TransactionReceipt) => Promise<unknown>;
  onSent: (hash: string) => void;
}

/**
 * One wallet transaction from the verified wallet, behind one button and a review: the button opens the review (what
 * is sent, to whom, what it costs), Confirm asks the wallet; the progress toast follows and a failure is said beside.
 */
export default function WalletCallButton({ call, words, label, review, testId, className = "btn btn--primary", afterReceipt, onSent }: Props) {
  const wallet = useWalletSender({ requireVerifiedWallet: true, afterReceipt });
  const config = useRuntimeConfig().data;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [reviewing, setReviewing] = useState(false);

  const send = async () => {
    setReviewing(false);
    setBusy(true);
    setError("");
    const progress = txProgress(config);
    let hash: string | undefined;
    try {
      if (!config) throw new WalletStepError("The network configuration is not loaded yet");
      progress.step(words.confirm);
      hash = await wallet.send({ ...call, chainId: config.chainId });
      progress.done(words.done, hash);
      onSent(hash);
    } catch (e) {
      const message = walletErrorMessage(e, words.failed);
      setError(message);
      progress.fail(message, (e as WalletStepError)?.hash ?? hash);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack">
      <WalletBar />
      {reviewing ? (
        <ReviewCard title={review.title} lines={review.lines} confirmLabel={review.confirm} onConfirm={() => void send()} onCancel={() => setReviewing(false)} />
      ) : (
        <div>
          <button type="button" className={className} disabled={!wallet.isConnected || wallet.mismatch || busy} onClick={() => setReviewing(true)} data-testid={testId}>
            {busy ? label.busy : label.idle}
          </button>
        </div>
      )}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
