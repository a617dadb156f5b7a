import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { displayUsd } from "#domain/money";
import { useRuntimeConfig } from "../config";
import { useNoteWallet } from "../nfts/useNoteWallet";
import { txProgress } from "../txProgress";
import { useTestDollarBalance } from "../wallet/useTestDollarBalance";
import { WalletStepError } from "../wallet/txError";
import { allowanceToCover, allowButtonText } from "./allowanceToCover";
import { ReviewCard } from "../review/ReviewCard";
import { useMyOrders } from "./getMyOrders";
import { orderKeys } from "./keys";
import { openOfferExposure } from "./offerExposure";
import { approveMarketplaceCall, useMarketplaceAllowance } from "./useMarketplaceAllowance";
import { orderErrorMessage } from "./useOrderFlow";

/**
 * Beside an offer: what the wallet holds and what the marketplace may take from it, against the most the user's
 * open offers and this one can take in all. An offer is paid by allowance when a holder accepts, and an approve
 * sets the allowance rather than adding to it, so the one "Allow" covers every open offer plus this one (the only
 * gas an offer costs); short of it the order book marks offers unfunded. `most` null: only the open offers
 * (`orderHash`, when this offer is already stored, keeps it from being counted twice).
 */
export function FundingNote({ most, orderHash }: { most: bigint | null; orderHash?: string }) {
  const config = useRuntimeConfig().data;
  const wallet = useNoteWallet();
  // Offers are signed by the verified wallet, so its funds are the ones that count, connected or not.
  const owner = wallet.verified ?? wallet.address;
  const balance = useTestDollarBalance(owner);
  const allowance = useMarketplaceAllowance(owner);
  const made = useMyOrders().data?.made;
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [reviewing, setReviewing] = useState(false);
  const others = openOfferExposure(made ?? [], orderHash);
  const thisOne = most !== null && most > 0n ? most : 0n;
  const need = allowanceToCover(others.total, thisOne);
  if (need === 0n || (most !== null && most <= 0n)) return null;
  const shortBalance = balance.data !== undefined && balance.data < need;
  const shortAllowance = allowance.data !== undefined && allowance.data < need;

  const allow = async () => {
    setReviewing(false);
    setBusy(true);
    setError("");
    const progress = txProgress(config);
    try {
      if (!config?.contracts) throw new WalletStepError("The marketplace is not deployed on this network");
      progress.step(`Confirm in your wallet: allow the marketplace to take up to ${displayUsd(need)} from your wallet when holders accept your offers (one transaction)…`);
      const hash = await wallet.send(approveMarketplaceCall({ chainId: config.chainId, contracts: config.contracts }, need));
      progress.done(`The marketplace may take up to ${displayUsd(need)}`, hash);
      await queryClient.invalidateQueries({ queryKey: ["marketplace-allowance"] });
      // Unfunded offers turn open on the next read once the allowance is there.
      await queryClient.invalidateQueries({ queryKey: orderKeys.all });
    } catch (e) {
      const message = orderErrorMessage(e, "The approval failed");
      setError(message);
      progress.fail(message, (e as WalletStepError)?.hash);
    } finally {
      setBusy(false);
    }
  };

  const exposureText =
    others.count === 0
      ? ""
      : ` Your ${others.count} open offer${others.count === 1 ? "" : "s"} can take up to ${displayUsd(others.total)}${most === null ? "" : `; with this one, ${displayUsd(need)}`}.`;
  return (
    <div className="small stack" data-testid="funding-note">
      <p className="muted" data-testid="funding-exposure">
        Your wallet holds {balance.data === undefined ? "…" : displayUsd(balance.data)}; the marketplace may take {allowance.data === undefined ? "…" : displayUsd(allowance.data)} of it.
        {most !== null && ` The offer pays at most ${displayUsd(thisOne)}, taken from your wallet only when a holder accepts.`}
        {exposureText}
      </p>
      {shortBalance && (
        <p className="field__error" data-testid="funding-short">
          Your wallet holds less than your offers may pay: they wait as unfunded until you hold enough.
        </p>
      )}
      {shortAllowance && !reviewing && (
        <div className="row gap-sm">
          <button
            type="button"
            className="btn btn--secondary btn--sm btn--wrap"
            onClick={() => setReviewing(true)}
            disabled={busy || !wallet.isConnected || wallet.mismatch}
            data-testid="funding-allow"
          >
            {allowButtonText(need, others.count, most !== null)} (one transaction)
          </button>
        </div>
      )}
      {shortAllowance && reviewing && (
        <ReviewCard
          title={`Allow the marketplace ${displayUsd(need)}`}
          lines={[
            { label: "Your wallet sends", value: "one transaction to the test dollar contract: an approval, no dollars move now (gas only)" },
            {
              label: "It lets",
              value: (
                <>
                  the marketplace contract <code>{config?.contracts?.marketplace}</code> take up to {displayUsd(need)} from your wallet, only when a holder accepts one of your offers
                </>
              ),
              testId: "allow-review-spender",
            },
            { label: "It covers", value: allowButtonText(need, others.count, most !== null).replace(/^Allow [^:]+: /, ""), testId: "allow-review-covers" },
          ]}
          confirmLabel="Confirm allowance"
          onConfirm={() => void allow()}
          onCancel={() => setReviewing(false)}
        />
      )}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
