import { useState } from "react";
import type { TransactionReceipt } from "viem";
import { useRuntimeConfig } from "../config";
import { txProgress } from "../txProgress";
import { WalletBar } from "./WalletBar";
import { walletErrorMessage, WalletStepError } from "./txError";
import { useWalletSender } from "./useWalletSender";

interface Props {
  /** The one call to send, as the API or the page built it. */
  call: { to: `0x${string}`; data: `0x${string}`; value: string };
  /** The words of each step: asking the wallet, done, and the fallback of a failure. */
  words: { confirm: string; done: string; failed: string };
  label: { idle: string; busy: string };
  testId: string;
  className?: string;
  afterReceipt?: (receipt: TransactionReceipt) => Promise<unknown>;
  onSent: (hash: string) => void;
}

/**
 * One wallet transaction from the verified wallet, behind one button: the wallet bar, the progress toast, and the
 * failure said beside the button. The words shown before it (what the call does) are the caller's.
 */
export default function WalletCallButton({ call, words, label, testId, className = "btn btn--primary", afterReceipt, onSent }: Props) {
  const wallet = useWalletSender({ requireVerifiedWallet: true, afterReceipt });
  const config = useRuntimeConfig().data;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const send = async () => {
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
      <div>
        <button type="button" className={className} disabled={!wallet.isConnected || wallet.mismatch || busy} onClick={() => void send()} data-testid={testId}>
          {busy ? label.busy : label.idle}
        </button>
      </div>
      {error && <p className="field__error" role="alert">{error}</p>}
    </div>
  );
}
