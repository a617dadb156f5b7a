import { useState } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import type { Address, Hex } from "viem";
import { usePublicClient } from "wagmi";
import { displayUsd, parseUsd } from "#domain/money";
import type { WireOrder } from "#domain/wire/order";
import { Spinner } from "../../../components/Spinner";
import { useRuntimeConfig } from "../../../lib/config";
import { shortAddress, usd } from "../../../lib/format";
import { marketplaceKeys } from "../../../lib/nfts/keys";
import { useNoteWallet } from "../../../lib/nfts/useNoteWallet";
import { orderKeys } from "../../../lib/orders/keys";
import { NOTE_APPROVAL_STEP, noteApprovalCall } from "../../../lib/orders/noteApproval";
import { FundingNote } from "../../../lib/orders/FundingNote";
import { useMyOrders } from "../../../lib/orders/getMyOrders";
import { acceptMatchingOfferCall, acceptOfferCall, cancelOrdersCall, incrementCounterCall } from "../../../lib/orders/orderCalls";
import { bpsText } from "../../../lib/orders/bpsText";
import { expiryText, matchingRanges } from "../../../lib/orders/orderWords";
import { isCancellable, ORDER_STATUS_TEXT, ORDER_STATUS_TONE, orderStatusReason } from "../../../lib/orders/orderStatusText";
import { feeOf, useMarketplaceFeeBps } from "../../../lib/orders/useMarketplaceFee";
import { orderErrorMessage } from "../../../lib/orders/useOrderFlow";
import { txProgress } from "../../../lib/txProgress";
import { ReviewStep } from "../../../lib/wallet/ReviewStep";
import { WalletStepError } from "../../../lib/wallet/txError";
import type { WalletCall } from "../../../lib/wallet/walletCall";

const KIND_TEXT: Record<WireOrder["kind"], string> = { listing: "Listing", offer: "Offer", matchingOffer: "Offer on any matching note" };

/** What the order asks, in a line: "note #42 at 97% of par, at most $9,800.00" or "any note at 12%+ … up to $50,000.00". */
export function orderTermsText(o: WireOrder): string {
  const price = o.priceKind === "par" ? `${bpsText(o.parBps)} of par${o.cap ? `, at most ${usd(o.cap)}` : ""}` : `for ${usd(o.price)}`;
  if (o.kind === "matchingOffer") return `Any note ${matchingRanges(o.message)} at ${bpsText(o.parBps)} of par, up to ${usd(o.budget)} (spent ${usd(o.filled)})`;
  return `Note #${o.tokenId} ${o.priceKind === "par" ? "at " : ""}${price}`;
}

/**
 * An order's status badge and why: when it is not open, the book's reason (a late note: the order waits for the
 * borrower to catch up; an unfunded offer: what the wallet lacks); an open offer says it is funded, since funding
 * is what an offer can lose without its maker doing anything to it.
 */
function OrderStatus({ order }: { order: WireOrder }) {
  const reason = orderStatusReason(order) ?? (order.status === "open" && order.kind !== "listing" ? "Funded: your wallet holds and allows its price now" : null);
  return (
    <span data-testid="order-status" data-status={order.status}>
      <span className={`badge badge--${ORDER_STATUS_TONE[order.status]}`}>{ORDER_STATUS_TEXT[order.status]}</span>
      {reason ? <span className="small muted"> {reason}</span> : null}
    </span>
  );
}

/**
 * "Offers" on the portfolio: offers received on the notes the user holds (accept: one transaction naming the least
 * they take) and the orders they signed, with each one's status and why (cancel one, or cancel all at once).
 */
export function OffersSection() {
  const orders = useMyOrders();
  const config = useRuntimeConfig().data;
  const wallet = useNoteWallet();
  const client = usePublicClient();
  const fee = useMarketplaceFeeBps();
  const queryClient = useQueryClient();
  const [accepting, setAccepting] = useState<WireOrder | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const [cancelling, setCancelling] = useState<WireOrder | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const target = config?.contracts ? { marketplace: config.contracts.marketplace as Address, chainId: config.chainId } : null;

  const run = async (label: string, step: string, makeCall: () => WalletCall, sells = false) => {
    setBusy(true);
    setError("");
    const progress = txProgress(config);
    try {
      const me = await wallet.ready();
      if (sells && config?.contracts && client) {
        const approval = await noteApprovalCall(client, { chainId: config.chainId, contracts: config.contracts }, me);
        if (approval) {
          progress.step(NOTE_APPROVAL_STEP);
          await wallet.send(approval);
        }
      }
      progress.step(step);
      const hash = await wallet.send(makeCall());
      progress.done(label, hash);
    } catch (e) {
      const message = orderErrorMessage(e, "The transaction failed");
      setError(message);
      progress.fail(message, (e as WalletStepError)?.hash);
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      void queryClient.invalidateQueries({ queryKey: marketplaceKeys.all });
      void queryClient.invalidateQueries({ queryKey: marketplaceKeys.portfolio });
    }
  };

  const accept = (o: WireOrder) => {
    setAccepting(null);
    const price = parseUsd(o.priceNow ?? "0");
    const tokenId = BigInt(o.tokenId ?? "0");
    void run(
      `Note #${o.tokenId} sold for ${displayUsd(price)}`,
      `Confirm in your wallet: sell note #${o.tokenId} to ${shortAddress(o.signer)} for at least ${displayUsd(price)} (one transaction)…`,
      () => {
        if (!target) throw new WalletStepError("The marketplace is not deployed on this network");
        const signed = { message: o.message, signature: o.signature as Hex };
        return o.kind === "matchingOffer" ? acceptMatchingOfferCall(target, signed, tokenId, price) : acceptOfferCall(target, signed, price);
      },
      true,
    );
  };

  const cancel = (o: WireOrder) => {
    setCancelling(null);
    void run(`${KIND_TEXT[o.kind]} cancelled`, `Confirm in your wallet: cancel your ${KIND_TEXT[o.kind].toLowerCase()} (${orderTermsText(o)}), one transaction…`, () => {
      if (!target) throw new WalletStepError("The marketplace is not deployed on this network");
      return cancelOrdersCall(target, [o.hash as Hex]);
    });
  };

  const cancelAll = () => {
    setConfirmAll(false);
    void run("Every order you signed is cancelled", "Confirm in your wallet: cancel every order you signed so far (one transaction)…", () => {
      if (!target) throw new WalletStepError("The marketplace is not deployed on this network");
      return incrementCounterCall(target);
    });
  };

  const body = () => {
    if (orders.isError) {
      return (
        <div className="alert alert--danger" role="alert" data-testid="offers-error">
          <p>Failed to load your offers.</p>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void orders.refetch()}>
            Retry
          </button>
        </div>
      );
    }
    if (!orders.data) return <Spinner label="Loading offers" />;
    const { received, made } = orders.data;
    const live = made.filter(isCancellable);
    return (
      <>
        <h3>Received</h3>
        {received.length === 0 ? (
          <p className="small muted" data-testid="offers-received-empty">
            No offers on your notes yet.
          </p>
        ) : (
          <ul className="stack" data-testid="offers-received" style={{ listStyle: "none", padding: 0, margin: 0 }}>
            {received.map((o) => {
              const price = parseUsd(o.priceNow ?? "0");
              const f = fee.data === undefined ? null : feeOf(price, fee.data);
              return (
                <li key={`${o.hash}-${o.tokenId}`} className="card stack" data-testid="offer-received">
                  <div className="mk-card__head">
                    <strong>
                      {usd(o.priceNow)} for note #{o.tokenId}
                    </strong>
                    <span className="badge badge--success">{KIND_TEXT[o.kind]}</span>
                  </div>
                  {o.status !== "open" && <OrderStatus order={o} />}
                  <p className="small muted">
                    {orderTermsText(o)} · from <code>{shortAddress(o.signer)}</code> · until {expiryText(o.message.expiry)}
                  </p>
                  {accepting?.hash === o.hash && accepting.tokenId === o.tokenId ? (
                    <ReviewStep
                      title={`Sell note #${o.tokenId}`}
                      lines={[
                        { label: "Price", value: displayUsd(price), testId: "accept-price" },
                        { label: "Marketplace fee", value: f === null ? "…" : displayUsd(f) },
                        { label: "You receive", value: f === null ? "…" : displayUsd(price - f), testId: "accept-receive" },
                        { label: "The buyer", value: <code>{shortAddress(o.signer)}</code> },
                        {
                          label: "Your wallet sends",
                          value: `one transaction that sells note #${o.tokenId} for at least ${displayUsd(price)} (the first time you sell, one more before it letting the marketplace move your notes)`,
                        },
                      ]}
                      payer={wallet.address}
                      confirmLabel={`Sell for ${displayUsd(price)}`}
                      onConfirm={() => accept(o)}
                      onCancel={() => setAccepting(null)}
                    />
                  ) : (
                    <div>
                      <button
                        type="button"
                        className="btn btn--primary btn--sm"
                        onClick={() => setAccepting(o)}
                        disabled={busy || o.status !== "open" || !o.tokenId || !wallet.isConnected || wallet.mismatch}
                      >
                        Accept {usd(o.priceNow)}
                      </button>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        <div className="mk-toolbar">
          <h3>Made</h3>
          {live.length > 0 && !confirmAll && (
            <button type="button" className="btn btn--danger-ghost btn--sm" onClick={() => setConfirmAll(true)} disabled={busy}>
              Cancel all
            </button>
          )}
        </div>
        <FundingNote most={null} />
        {confirmAll && (
          <ReviewStep
            title="Cancel every order you signed"
            lines={[{ label: "Your wallet sends", value: "one transaction that ends every listing and offer you signed so far; new ones work as before" }]}
            payer={wallet.address}
            confirmLabel="Cancel all"
            onConfirm={cancelAll}
            onCancel={() => setConfirmAll(false)}
          />
        )}
        {cancelling && (
          <ReviewStep
            title={`Cancel your ${KIND_TEXT[cancelling.kind].toLowerCase()}`}
            lines={[
              { label: "The order", value: orderTermsText(cancelling) },
              { label: "Your wallet sends", value: "one on-chain transaction that ends this order for good: it costs gas", testId: "cancel-gas" },
              { label: "Without gas", value: `let it expire: it can never fill after ${expiryText(cancelling.message.expiry)}`, testId: "cancel-expire" },
              { label: "Several to end?", value: "Cancel all ends every order you signed in one transaction" },
            ]}
            payer={wallet.address}
            confirmLabel="Cancel on-chain"
            onConfirm={() => cancel(cancelling)}
            onCancel={() => setCancelling(null)}
          />
        )}
        {made.length === 0 ? (
          <p className="small muted" data-testid="offers-made-empty">
            You have signed no listings or offers. Make an offer from a note's page, or on any matching note from the <Link to="/marketplace">marketplace</Link>.
          </p>
        ) : (
          <div className="table-wrap">
            <table className="table table--cards" data-testid="offers-made">
              <thead>
                <tr>
                  <th>Order</th>
                  <th>Price now</th>
                  <th>Status</th>
                  <th>Until</th>
                  <th>
                    <span className="sr-only">Cancel</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {made.map((o) => (
                  <tr key={o.hash} data-testid="offer-made">
                    <td data-label="Order">
                      {KIND_TEXT[o.kind]}: {orderTermsText(o)}
                    </td>
                    <td data-label="Price now">{usd(o.priceNow)}</td>
                    <td data-label="Status">
                      <OrderStatus order={o} />
                    </td>
                    <td data-label="Until">{expiryText(o.message.expiry)}</td>
                    <td>
                      {isCancellable(o) && (
                        <button type="button" className="btn btn--ghost btn--sm" onClick={() => setCancelling(o)} disabled={busy}>
                          Cancel
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </>
    );
  };

  return (
    <section className="card stack" id="offers" aria-labelledby="offers-title" data-testid="offers-section">
      <h2 id="offers-title">Offers</h2>
      {body()}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
