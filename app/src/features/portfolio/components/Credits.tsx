import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useRuntimeConfig } from "../../../lib/config";
import type { PortfolioResult } from "../../../lib/nfts/types";
import { marketplaceKeys } from "../../../lib/nfts/keys";
import { useNoteWallet } from "../../../lib/nfts/useNoteWallet";
import { shortAddress, usd } from "../../../lib/format";
import { ReviewStep } from "../../../lib/wallet/ReviewStep";
import { txProgress } from "../../../lib/txProgress";
import { walletErrorMessage, WalletStepError } from "../../../lib/wallet/txError";

/** Repayments credited to the user's wallet and not yet withdrawn (pull payments), with the button that withdraws them. */
export function Credits({ credits }: { credits: PortfolioResult["credits"] }) {
  const wallet = useNoteWallet();
  const config = useRuntimeConfig().data;
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const withdraw = async () => {
    if (!credits.withdrawCall) return;
    setReviewing(false);
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
        <div className="stat__value" data-testid="credits-available">
          {usd(credits.available)}
        </div>
        <p className="small muted">
          Received in total {usd(credits.credited)}; withdrawn {usd(credits.withdrawn)}.
        </p>
      </div>
      {reviewing ? (
        <ReviewStep
          title="Review the withdrawal"
          lines={[
            { label: "You receive", value: usd(credits.available), testId: "review-amount" },
            { label: "From", value: "the loan note contract, where repayments to you wait" },
            {
              label: "To",
              value: (
                <>
                  your wallet <code>{shortAddress(wallet.address)}</code>
                </>
              ),
              testId: "review-to",
            },
            { label: "Your wallet sends", value: "one transaction to the loan note contract that pays them out: gas only, no dollars leave your wallet", testId: "review-wallet" },
          ]}
          payer={wallet.address}
          confirmLabel={`Confirm and withdraw ${usd(credits.available)}`}
          onConfirm={() => void withdraw()}
          onCancel={() => setReviewing(false)}
        />
      ) : (
        <button type="button" className="btn btn--primary" onClick={() => setReviewing(true)} disabled={busy || !credits.withdrawCall || !wallet.isConnected || wallet.mismatch}>
          {busy ? "Withdrawing…" : "Withdraw repayments"}
        </button>
      )}
    </section>
  );
}
