import { useState } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { useRuntimeConfig } from "../config";
import { serverMessage } from "../errors";
import { marketplaceKeys } from "./keys";
import { prepareUnlist } from "./prepareUnlist";
import type { NftRecord } from "./types";
import { useNoteWallet } from "./useNoteWallet";
import { walletErrorMessage, WalletStepError } from "../wallet/txError";
import { txProgress } from "../txProgress";
import { WalletBar } from "../wallet/WalletBar";
import { usd } from "../format";
import { useOrderBook } from "../orders/getOrderBook";
import { ListNoteForm } from "../orders/ListNoteForm";
import { formatUsdAmount } from "#domain/money";
import { orderPriceNow } from "../orders/orderPriceNow";
import { parBreakdown } from "../orders/parWords";
import { payoffSplitOf } from "../servicing/payoffSplitOf";
import { ORDER_STATUS_TEXT, orderStatusReason } from "../orders/orderStatusText";
import type { WireOrder } from "#domain/wire/order";
import { ReviewCard } from "../review/ReviewCard";
import { expiryText } from "../orders/orderWords";

const messageOf = (e: unknown, fallback: string) => ((e as { isAxiosError?: boolean })?.isAxiosError ? serverMessage(e, fallback) : walletErrorMessage(e, fallback));

/** The vault page with this note chosen for the move. */
export const vaultLink = (tokenId: string, move: "deposit" | "withdraw") => `/nft-transfer?tokenId=${tokenId}&move=${move}`;

/** List by a signature, list again at a new price, or cancel the listings of a note the user holds in their wallet. */
/** "Listed at $10,050.00 (100% of par is …)." with, when a fill would refuse it now (a late note), its status and why. */
function listedText(order: WireOrder, nft: NftRecord): string {
  const price = orderPriceNow(order, nft.servicing);
  const par = order.priceKind === "par" ? ` (${parBreakdown(payoffSplitOf(nft.servicing), order.parBps)})` : "";
  const reason = orderStatusReason(order);
  const held = order.status === "open" ? "" : ` ${ORDER_STATUS_TEXT[order.status]}${reason ? `: ${reason}` : ""}.`;
  return `Listed at ${usd(price === null ? order.priceNow : formatUsdAmount(price))}${par}.${held}`;
}

export default function OwnerActions({ nft, bar = true }: { nft: NftRecord; bar?: boolean }) {
  const config = useRuntimeConfig().data;
  const wallet = useNoteWallet();
  const queryClient = useQueryClient();
  const book = useOrderBook(nft.tokenId, !nft.inVault && nft.isActive);
  const me = wallet.verified;
  const mySigned = (book.data?.listings ?? []).filter((o) => o.signer.toLowerCase() === me);
  const listed = nft.marketplaceStatus === "listed" || mySigned.length > 0;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [reviewing, setReviewing] = useState(false);

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

  // Cancelling answers every call it takes: cancelOrders for the holder's signed listings, and an on-chain listing's cancel.
  const unlist = () => {
    setReviewing(false);
    return run(`Note #${nft.tokenId} unlisted`, async (progress) => {
      const answer = await prepareUnlist(nft.tokenId);
      const calls = answer.calls ?? [answer.call];
      let hash = "";
      for (const [i, call] of calls.entries()) {
        progress.step(`Confirm in your wallet: cancel your listing${mySigned.length > 1 ? "s" : ""} of note #${nft.tokenId} (transaction ${i + 1} of ${calls.length})…`);
        hash = await wallet.send(call);
      }
      return hash;
    });
  };
  // The latest expiry of the holder's signed listings: after it none can fill, at no cost.
  const lastExpiry = mySigned.reduce<bigint | null>((latest, o) => {
    const expiry = BigInt(o.message.expiry);
    return latest === null || expiry > latest ? expiry : latest;
  }, null);
  const cancelCount = mySigned.length + (nft.marketplaceStatus === "listed" ? 1 : 0);

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
      {listed && (
        <p className="small muted" data-testid={`listed-${nft.tokenId}`}>
          {mySigned.length > 0 ? `${listedText(mySigned[0], nft)} A new listing below reprices it; cancel the old one if it should not stay valid.` : "Listed on-chain."}
        </p>
      )}
      <ListNoteForm nft={nft} disabled={busy || !wallet.isConnected || wallet.mismatch} />
      <div className="mk-actions">
        {listed && !reviewing && (
          <button type="button" className="btn btn--danger-ghost btn--sm" onClick={() => setReviewing(true)} disabled={busy || !wallet.isConnected || wallet.mismatch}>
            Cancel listing
          </button>
        )}
        <Link to={vaultLink(nft.tokenId, "deposit")} className="btn btn--ghost btn--sm">
          Move to vault
        </Link>
      </div>
      {listed && reviewing && (
        <ReviewCard
          title={`Cancel your listing of note #${nft.tokenId}`}
          lines={[
            {
              label: "Your wallet sends",
              value: `${cancelCount > 1 ? `${cancelCount} on-chain transactions` : "one on-chain transaction"} to the marketplace contract that end${cancelCount > 1 ? "" : "s"} the listing for good: gas, no dollars`,
              testId: "unlist-gas",
            },
            ...(lastExpiry !== null ? [{ label: "Without gas", value: `let it expire: it can never fill after ${expiryText(lastExpiry)}`, testId: "unlist-expire" }] : []),
          ]}
          confirmLabel="Cancel on-chain"
          busy={busy}
          onConfirm={() => void unlist()}
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
