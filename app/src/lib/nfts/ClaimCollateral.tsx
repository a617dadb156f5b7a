import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { WirePledgedNft } from "#domain/wire/collateral";
import { useRuntimeConfig } from "../config";
import { serverMessage } from "../errors";
import { shortAddress } from "../format";
import { txProgress } from "../txProgress";
import { collateralToast } from "../realtime/collateralToast";
import { walletErrorMessage, type WalletStepError } from "../wallet/txError";
import { pieceTitle } from "./collateralWords";
import { collateralQueryPrefixes } from "./keys";
import { prepareCollateralClaim } from "./prepareCollateralClaim";
import { useNoteWallet } from "./useNoteWallet";

const messageOf = (e: unknown, fallback: string) => ((e as { isAxiosError?: boolean })?.isAxiosError ? serverMessage(e, fallback) : walletErrorMessage(e, fallback));

interface Props {
  /** The note's token id (the loan number). */
  tokenId: string;
  nft: WirePledgedNft;
  /** "holder": a defaulted note's holder takes the piece; "borrower": the borrower pulls it back after a failed return. */
  role: "holder" | "borrower";
  onClaimed?: () => void;
}

/**
 * Claim an escrowed NFT: first what happens, in words, then the API's claimCollateral call sent from the
 * verified wallet with a progress toast. Render it inside WithWallet.
 */
export default function ClaimCollateral({ tokenId, nft, role, onClaimed }: Props) {
  const config = useRuntimeConfig().data;
  const wallet = useNoteWallet();
  const queryClient = useQueryClient();
  const [reviewing, setReviewing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const title = pieceTitle(nft);
  const receiver = wallet.verified;
  const label = role === "holder" ? "Claim the NFT" : "Claim my NFT back";
  const words =
    role === "holder"
      ? `The note is settled and burned; ${title} moves to your wallet ${shortAddress(receiver)}.`
      : `${title} moves back to your wallet ${shortAddress(receiver)}. Your loan is already repaid: nothing more is paid.`;

  const claim = async () => {
    setBusy(true);
    setError("");
    const progress = txProgress(config);
    try {
      await wallet.ready();
      progress.step(`Preparing the claim of ${title}…`);
      const call = await prepareCollateralClaim(tokenId, receiver);
      progress.step(`Confirm in your wallet: ${call.summary}`);
      const hash = await wallet.send({ to: call.to as `0x${string}`, data: call.data as `0x${string}`, value: call.value, chainId: config?.chainId ?? 0 });
      collateralToast.ownMoveDone();
      progress.done(role === "holder" ? `${title} is now in your wallet` : `${title} is back in your wallet`, hash);
      setReviewing(false);
      await Promise.all(collateralQueryPrefixes.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      onClaimed?.();
    } catch (e) {
      const message = messageOf(e, "The claim failed");
      setError(message);
      progress.fail(message, (e as WalletStepError)?.hash);
    } finally {
      setBusy(false);
    }
  };

  const blocked = busy || !wallet.isConnected || wallet.mismatch;
  return (
    <div className="stack" data-testid={`claim-collateral-${tokenId}`}>
      {!reviewing ? (
        <div>
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => {
              setError("");
              setReviewing(true);
            }}
            data-testid="claim-collateral"
          >
            {label}
          </button>
        </div>
      ) : (
        <section className="review" role="group" aria-labelledby={`claim-title-${tokenId}`} data-testid="claim-review">
          <h3 id={`claim-title-${tokenId}`}>{label}</h3>
          <p data-testid="claim-words">{words}</p>
          <p className="small muted" data-testid="claim-sends">
            Your wallet sends one transaction to the collateral escrow contract: gas only, you pay nothing.
          </p>
          {!wallet.isConnected && <p className="small muted">Connect your wallet to claim.</p>}
          {wallet.mismatch && receiver && <p className="small field__error">Switch your wallet to your verified address {shortAddress(receiver)}.</p>}
          <div className="row gap-sm">
            <button type="button" className="btn btn--primary" onClick={() => void claim()} disabled={blocked} data-testid="claim-confirm">
              {busy ? "Claiming…" : "Confirm claim"}
            </button>
            <button type="button" className="btn btn--ghost" onClick={() => setReviewing(false)} disabled={busy}>
              Cancel
            </button>
          </div>
        </section>
      )}
      {error && (
        <p className="field__error" role="alert" data-testid="claim-error">
          {error}
        </p>
      )}
    </div>
  );
}
