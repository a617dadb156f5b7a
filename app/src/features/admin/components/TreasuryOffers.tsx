import { useState } from "react";
import { serverMessage } from "../../../lib/errors";
import { useRuntimeConfig } from "../../../lib/config";
import { txProgress } from "../../../lib/txProgress";
import { usd } from "../../../lib/format";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import { ReviewCard } from "../../../lib/review/ReviewCard";
import { bpsText } from "../../../lib/orders/bpsText";
import { useTreasuryOffers, type TreasuryOffer } from "../api/getTreasuryOffers";
import { useAcceptTreasuryOffer } from "../api/acceptTreasuryOffer";
import { QueryState } from "./QueryState";

const TEXTS = {
  title: "Offers on the treasury's notes",
  intro: "Open offers investors signed on notes the treasury holds, and matching offers those notes fit, at their price now.",
  empty: "No open offers on the treasury's notes.",
  error: "Failed to read the offers. Please try again.",
  accept: "Accept…",
  reviewTitle: (tokenId: string) => `Sell note #${tokenId} to this offer`,
  sentence:
    "The server signs and sends one transaction with the treasury key (no wallet here): the note moves to the buyer and the buyer's dollars to the treasury, less the marketplace's fee. It fails rather than sell for less than the price shown.",
  confirm: "Confirm sale",
  busy: "Sending…",
  failed: "Failed to accept the offer",
  sold: (message: string, price: string) => `${message} for ${price}`,
  kind: (offer: TreasuryOffer) => (offer.kind === "matchingOffer" ? "Matching offer" : "Offer"),
  terms: (offer: TreasuryOffer) => (offer.priceKind === "par" ? `${bpsText(offer.parBps)} of par` : "Fixed price"),
} as const;

/** The open offers on treasury-held notes, each accepted only after a review of price, buyer and fee. */
export function TreasuryOffers() {
  const offers = useTreasuryOffers();
  const accept = useAcceptTreasuryOffer();
  const config = useRuntimeConfig().data;
  const [reviewing, setReviewing] = useState<TreasuryOffer | null>(null);
  const keyOf = (o: TreasuryOffer) => `${o.hash}:${o.tokenId}`;

  const confirm = (offer: TreasuryOffer) => {
    const progress = txProgress(config);
    progress.step(TEXTS.busy);
    accept.mutate(
      { hash: offer.hash, tokenId: offer.tokenId!, minPrice: offer.priceNow! },
      {
        onSuccess: ({ message, sale }) => {
          setReviewing(null);
          progress.done(TEXTS.sold(message, usd(sale.price)), sale.txHash);
        },
        onError: (e) => progress.fail(serverMessage(e, TEXTS.failed)),
      },
    );
  };

  return (
    <div className="card" data-testid="treasury-offers">
      <h2 className="section-title">{TEXTS.title}</h2>
      <p className="small muted">{TEXTS.intro}</p>
      <QueryState loading={offers.isLoading} error={offers.isError} empty={!offers.data?.length} errorText={TEXTS.error} emptyText={TEXTS.empty} onRetry={() => void offers.refetch()}>
        <ul className="list">
          {offers.data?.map((offer) => (
            <li key={keyOf(offer)} data-testid="treasury-offer">
              <div className="row gap-sm">
                <span>Note #{offer.tokenId}</span>
                <span>
                  {TEXTS.kind(offer)} · {TEXTS.terms(offer)}
                </span>
                <strong>{usd(offer.priceNow)}</strong>
                <span className="muted">
                  from <ExplorerLink kind="address" id={offer.signer} />
                </span>
                <button type="button" className="btn btn--secondary btn--sm" disabled={accept.isPending} onClick={() => setReviewing(offer)}>
                  {TEXTS.accept}
                </button>
              </div>
              {reviewing && keyOf(reviewing) === keyOf(offer) && (
                <ReviewCard
                  title={TEXTS.reviewTitle(offer.tokenId!)}
                  lines={[
                    { label: "Buyer pays", value: usd(offer.priceNow), testId: "review-price" },
                    { label: "Buyer (receives the note)", value: <code>{offer.signer}</code>, testId: "review-buyer" },
                    { label: "Marketplace fee", value: usd(offer.fee), testId: "review-fee" },
                    { label: "The treasury receives", value: usd(offer.proceeds), testId: "review-proceeds" },
                  ]}
                  confirmLabel={TEXTS.confirm}
                  busyLabel={TEXTS.busy}
                  busy={accept.isPending}
                  onConfirm={() => confirm(offer)}
                  onCancel={() => setReviewing(null)}
                >
                  <p className="small">{TEXTS.sentence}</p>
                </ReviewCard>
              )}
            </li>
          ))}
        </ul>
      </QueryState>
    </div>
  );
}
