import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useRuntimeConfig } from "../../../lib/config";
import type { PortfolioResult } from "../../../lib/nfts/types";
import { marketplaceKeys } from "../../../lib/nfts/keys";
import { useNoteWallet } from "../../../lib/nfts/useNoteWallet";
import { usd } from "../../../lib/format";
import { txProgress } from "../../../lib/txProgress";
import { walletErrorMessage, WalletStepError } from "../../../lib/wallet/useWalletSender";

/** Repayments credited to the user's wallet and not yet withdrawn (pull payments), with the button that withdraws them. */
export function Credits({ credits }: { credits: PortfolioResult["credits"] }) {
  const wallet = useNoteWallet();
  const config = useRuntimeConfig().data;
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const withdraw = async () => {
    if (!credits.withdrawCall) return;
    setBusy(true);
    const progress = txProgress(config);
    try {
      progress.step("Confirm the withdrawal in your wallet…");
      const hash = await wallet.send(credits.withdrawCall);
      progress.done(`${usd(credits.available)} withdrawn to your wallet`, hash);
      await queryClient.invalidateQueries({ queryKey: marketplaceKeys.portfolio });
    } catch (e) {
      progress.fail(walletErrorMessage(e, "The withdrawal failed"), (e as WalletStepError)?.hash);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card row gap" style={{ justifyContent: "space-between", flexWrap: "wrap" }} aria-label="Repayments waiting" data-testid="credits">
      <div>
        <div className="stat__label">Repayments waiting to be withdrawn</div>
        <div className="stat__value" data-testid="credits-available">{usd(credits.available)}</div>
        <p className="small muted">Received in total {usd(credits.credited)}; withdrawn {usd(credits.withdrawn)}.</p>
      </div>
      <button type="button" className="btn btn--primary" onClick={() => void withdraw()} disabled={busy || !credits.withdrawCall || !wallet.isConnected || wallet.mismatch}>
        {busy ? "Withdrawing…" : "Withdraw repayments"}
      </button>
    </section>
  );
}
