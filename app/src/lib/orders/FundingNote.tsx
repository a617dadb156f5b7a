import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { displayUsd } from "#domain/money";
import { useRuntimeConfig } from "../config";
import { useNoteWallet } from "../nfts/useNoteWallet";
import { txProgress } from "../txProgress";
import { useTestDollarBalance } from "../wallet/useTestDollarBalance";
import { WalletStepError } from "../wallet/txError";
import { approveMarketplaceCall, useMarketplaceAllowance } from "./useMarketplaceAllowance";
import { orderErrorMessage } from "./useOrderFlow";

/**
 * Beside an offer: what the wallet holds and what the marketplace may take from it, against the most the offer
 * can pay. An offer is paid by allowance when a holder accepts, so short of it the user can allow that amount
 * (one approve transaction, the only gas an offer costs); until then the order book marks the offer unfunded.
 */
export function FundingNote({ most }: { most: bigint | null }) {
  const config = useRuntimeConfig().data;
  const wallet = useNoteWallet();
  const balance = useTestDollarBalance(wallet.address);
  const allowance = useMarketplaceAllowance(wallet.address);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  if (most === null || most <= 0n) return null;
  const shortBalance = balance.data !== undefined && balance.data < most;
  const shortAllowance = allowance.data !== undefined && allowance.data < most;

  const allow = async () => {
    setBusy(true);
    setError("");
    const progress = txProgress(config);
    try {
      if (!config?.contracts) throw new WalletStepError("The marketplace is not deployed on this network");
      progress.step(`Confirm in your wallet: allow the marketplace to take up to ${displayUsd(most)} from your wallet when a holder accepts your offer (one transaction)…`);
      const hash = await wallet.send(approveMarketplaceCall({ chainId: config.chainId, contracts: config.contracts }, most));
      progress.done(`The marketplace may take up to ${displayUsd(most)}`, hash);
      await queryClient.invalidateQueries({ queryKey: ["marketplace-allowance"] });
    } catch (e) {
      const message = orderErrorMessage(e, "The approval failed");
      setError(message);
      progress.fail(message, (e as WalletStepError)?.hash);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="small stack" data-testid="funding-note">
      <p className="muted">
        Your wallet holds {balance.data === undefined ? "…" : displayUsd(balance.data)}; the marketplace may take {allowance.data === undefined ? "…" : displayUsd(allowance.data)} of it.
        The offer pays at most {displayUsd(most)}, taken from your wallet only when a holder accepts.
      </p>
      {shortBalance && <p className="field__error" data-testid="funding-short">Your wallet holds less than the offer may pay: it waits as unfunded until you hold enough.</p>}
      {shortAllowance && (
        <div className="row gap-sm">
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void allow()} disabled={busy || !wallet.isConnected || wallet.mismatch} data-testid="funding-allow">
            Allow {displayUsd(most)} (one transaction)
          </button>
        </div>
      )}
      {error && <p className="field__error" role="alert">{error}</p>}
    </div>
  );
}
