import { useState } from "react";
import type { WireWalletCall } from "#domain/wire/collateral";
import { useRuntimeConfig } from "../../../lib/config";
import { txProgress } from "../../../lib/txProgress";
import { WalletBar } from "../../../lib/wallet/WalletBar";
import { walletErrorMessage, WalletStepError } from "../../../lib/wallet/txError";
import { useWalletSender } from "../../../lib/wallet/useWalletSender";

/**
 * The one transaction that lets the loan note take the pledged NFT at origination (issue 20): the API's call, said
 * in its words before the wallet is asked, sent from the verified wallet (the one that holds the piece).
 */
export default function ApproveEscrow({ call, onSent }: { call: WireWalletCall; onSent: (hash: string) => void }) {
  const wallet = useWalletSender({ requireVerifiedWallet: true });
  const config = useRuntimeConfig().data;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const approve = async () => {
    setBusy(true);
    setError("");
    const progress = txProgress(config);
    let hash: string | undefined;
    try {
      if (!config) throw new WalletStepError("The network configuration is not loaded yet");
      progress.step("Confirm the escrow approval in your wallet…");
      hash = await wallet.send({ to: call.to as `0x${string}`, data: call.data as `0x${string}`, value: call.value, chainId: config.chainId });
      progress.done("Escrow approved: the loan note may take the NFT when the loan is funded", hash);
      onSent(hash);
    } catch (e) {
      const message = walletErrorMessage(e, "The approval failed");
      setError(message);
      progress.fail(message, (e as WalletStepError)?.hash ?? hash);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack" data-testid="escrow-approval">
      <WalletBar />
      <div>
        <button type="button" className="btn btn--primary" disabled={!wallet.isConnected || wallet.mismatch || busy} onClick={() => void approve()} data-testid="approve-escrow">
          {busy ? "Approving…" : "Approve the escrow"}
        </button>
      </div>
      {error && <p className="field__error" role="alert">{error}</p>}
    </div>
  );
}
