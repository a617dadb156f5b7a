import { displayUsd } from "#domain/money";
import { allowanceToCover, unfundedByPermitText } from "./allowanceToCover";

/**
 * In a buy's review, when the buyer has open offers: a permit purchase sets the marketplace's allowance to the price
 * and the fill spends it, so every open offer would turn unfunded. Says so, and offers the two-transaction way that
 * keeps them funded (approve the price plus their exposure, then the plain fill, leaving the exposure allowed).
 */
export function KeepOffersFunded({ exposure, price, keep, onKeep }: { exposure: { count: number; total: bigint }; price: bigint; keep: boolean; onKeep: (keep: boolean) => void }) {
  if (exposure.count === 0) return null;
  return (
    <div className="stack small" data-testid="keep-offers-funded">
      <p className={keep ? "muted" : "field__error"} data-testid="review-offers-unfunded">
        {keep
          ? `Your ${exposure.count} open offer${exposure.count === 1 ? "" : "s"} (${displayUsd(exposure.total)}) stay funded: the marketplace may still take ${displayUsd(exposure.total)} after the purchase.`
          : `Buying with a permit, ${unfundedByPermitText(exposure.count, exposure.total)}.`}
      </p>
      <label className="row gap-sm">
        <input type="checkbox" checked={keep} onChange={(e) => onKeep(e.target.checked)} />
        Keep them funded: allow {displayUsd(allowanceToCover(exposure.total, price))} first, then buy (two transactions instead of a permit and one)
      </label>
    </div>
  );
}
