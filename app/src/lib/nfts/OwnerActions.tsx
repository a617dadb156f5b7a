import { useState } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { useRuntimeConfig } from "../config";
import { serverMessage } from "../errors";
import { marketplaceKeys } from "./keys";
import { prepareList } from "./prepareList";
import { prepareUnlist } from "./prepareUnlist";
import type { NftRecord } from "./types";
import { useNoteWallet } from "./useNoteWallet";
import { walletErrorMessage, WalletStepError } from "../wallet/txError";
import { txProgress } from "../txProgress";
import { WalletBar } from "../wallet/WalletBar";

const messageOf = (e: unknown, fallback: string) =>
  (e as { isAxiosError?: boolean })?.isAxiosError ? serverMessage(e, fallback) : walletErrorMessage(e, fallback);

/** The vault page with this note chosen for the move. */
export const vaultLink = (tokenId: string, move: "deposit" | "withdraw") => `/nft-transfer?tokenId=${tokenId}&move=${move}`;

/** List, change the price of, or cancel the listing of a note the user holds in their wallet. */
export default function OwnerActions({ nft, bar = true }: { nft: NftRecord; bar?: boolean }) {
  const config = useRuntimeConfig().data;
  const wallet = useNoteWallet();
  const queryClient = useQueryClient();
  const listed = nft.marketplaceStatus === "listed";
  const [price, setPrice] = useState(nft.listingPrice ?? nft.outstandingBalance);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: marketplaceKeys.all });
    await queryClient.invalidateQueries({ queryKey: marketplaceKeys.portfolio });
  };

  const run = async (label: string, action: (progress: ReturnType<typeof txProgress>) => Promise<string>) => {
    setBusy(true);
    setError("");
    const progress = txProgress(config);
    try {
      await wallet.ready();
      const hash = await action(progress);
      progress.done(label, hash);
      await refresh();
    } catch (e) {
      const message = messageOf(e, "The transaction failed");
      setError(message);
      progress.fail(message, (e as WalletStepError)?.hash);
    } finally {
      setBusy(false);
    }
  };

  const list = () =>
    run(listed ? `Note #${nft.tokenId} repriced` : `Note #${nft.tokenId} listed`, async (progress) => {
      progress.step("Checking the note…");
      const answer = await prepareList(nft.tokenId, price);
      let hash = "";
      for (const call of answer.calls) {
        progress.step(call.step === "approve" ? "Approve the marketplace for this note in your wallet…" : "Confirm the listing in your wallet…");
        hash = await wallet.send(call);
      }
      return hash;
    });

  const unlist = () =>
    run(`Note #${nft.tokenId} unlisted`, async (progress) => {
      const answer = await prepareUnlist(nft.tokenId);
      progress.step("Confirm the cancellation in your wallet…");
      return wallet.send(answer.call);
    });

  if (nft.inVault) {
    return (
      <p className="small muted" data-testid={`owner-actions-${nft.tokenId}`}>
        In the vault: <Link to={vaultLink(nft.tokenId, "withdraw")}>withdraw it</Link> to list it.
      </p>
    );
  }
  if (!nft.isActive) return null;
  return (
    <div className="stack" data-testid={`owner-actions-${nft.tokenId}`}>
      {bar && <WalletBar />}
      <div className="mk-actions">
        <div className="field">
          <label htmlFor={`price-${nft.tokenId}`}>{listed ? "New price ($)" : "Listing price ($)"}</label>
          <input id={`price-${nft.tokenId}`} inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
        </div>
        <button type="button" className="btn btn--primary btn--sm" onClick={() => void list()} disabled={busy || !wallet.isConnected || wallet.mismatch}>
          {listed ? "Change price" : "List for sale"}
        </button>
        {listed && (
          <button type="button" className="btn btn--danger-ghost btn--sm" onClick={() => void unlist()} disabled={busy || !wallet.isConnected || wallet.mismatch}>
            Cancel listing
          </button>
        )}
        <Link to={vaultLink(nft.tokenId, "deposit")} className="btn btn--ghost btn--sm">Move to vault</Link>
      </div>
      {error && <p className="field__error" role="alert">{error}</p>}
    </div>
  );
}
