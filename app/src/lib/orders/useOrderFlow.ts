import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import toast from "react-hot-toast";
import type { OrderTypedData, WireOrder } from "#domain/wire/order";
import { serverMessage } from "../errors";
import { marketplaceKeys } from "../nfts/keys";
import { useNoteWallet } from "../nfts/useNoteWallet";
import { usePublicClient } from "wagmi";
import { useRuntimeConfig } from "../config";
import { walletErrorMessage, WalletStepError } from "../wallet/txError";
import { NOTE_APPROVAL_STEP, noteApprovalCall } from "./noteApproval";
import { orderKeys } from "./keys";
import { requestOrderTypedData, type OrderRequest } from "./requestOrderTypedData";
import { placedOrderText } from "./placedOrderText";
import { submitOrder } from "./submitOrder";

export const orderErrorMessage = (e: unknown, fallback: string) => ((e as { isAxiosError?: boolean })?.isAxiosError ? serverMessage(e, fallback) : walletErrorMessage(e, fallback));

/**
 * Signing an order in two steps the user sees: `prepare` asks the API for the typed data (shown in words by the
 * caller), `sign` has the wallet sign exactly that and hands it to the order book. No transaction, no gas.
 * `done` words an order the book shows; one it stores without showing (an unfunded offer) is said as such, and
 * kept in `placed` so the page can say why and how to fix it.
 */
export function useOrderFlow(done: (order: WireOrder) => string) {
  const wallet = useNoteWallet();
  const config = useRuntimeConfig().data;
  const client = usePublicClient();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState<OrderTypedData | null>(null);
  const [placed, setPlaced] = useState<WireOrder | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const prepare = async (request: OrderRequest) => {
    setBusy(true);
    setError("");
    setPlaced(null);
    try {
      await wallet.ready();
      setTyped(await requestOrderTypedData(request));
    } catch (e) {
      setError(orderErrorMessage(e, "The order could not be prepared"));
    } finally {
      setBusy(false);
    }
  };

  const sign = async () => {
    if (!typed) return;
    setBusy(true);
    setError("");
    const toastId = toast.loading("Sign the order in your wallet…");
    try {
      if (typed.primaryType === "Listing") {
        // A listing nobody could fill is no listing: the marketplace must be allowed to move the seller's notes.
        const me = await wallet.ready();
        if (!config?.contracts || !client) throw new WalletStepError("The marketplace is not deployed on this network");
        const approval = await noteApprovalCall(client, { chainId: config.chainId, contracts: config.contracts }, me);
        if (approval) {
          toast.loading(NOTE_APPROVAL_STEP, { id: toastId });
          await wallet.send(approval);
        }
        toast.loading("Sign the listing in your wallet (no gas)…", { id: toastId });
      }
      const signature = await wallet.signOrder(typed);
      toast.loading("Sending the signed order…", { id: toastId });
      const kind = typed.primaryType === "Listing" ? "listing" : typed.primaryType === "Offer" ? "offer" : "matchingOffer";
      const order = await submitOrder({ kind, message: typed.message, signature });
      const text = placedOrderText(order, done(order));
      if (order.status === "open") toast.success(text, { id: toastId, duration: 6000 });
      else toast(text, { id: toastId, duration: 8000, icon: "⚠️" });
      setTyped(null);
      setPlaced(order);
      await queryClient.invalidateQueries({ queryKey: orderKeys.all });
      await queryClient.invalidateQueries({ queryKey: marketplaceKeys.all });
      await queryClient.invalidateQueries({ queryKey: marketplaceKeys.portfolio });
    } catch (e) {
      const message = orderErrorMessage(e, "The order was not signed");
      setError(message);
      toast.error(message, { id: toastId });
    } finally {
      setBusy(false);
    }
  };

  return { wallet, typed, placed, busy, error, prepare, sign, cancel: () => setTyped(null) };
}
