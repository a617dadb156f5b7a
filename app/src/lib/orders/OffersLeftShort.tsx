import { offersLeftShortText } from "./allowanceToCover";
import { useMyOrders } from "./getMyOrders";
import { openOfferExposure } from "./offerExposure";

/**
 * In a payment's review from the user's own wallet: whether what it keeps still funds their open offers. `besides`
 * is a note whose offers the action itself ends (buying it), left out of the count.
 */
export function OffersLeftShort({ balance, pays, besides }: { balance: bigint; pays: bigint; besides?: string }) {
  const made = (useMyOrders().data?.made ?? []).filter((o) => besides === undefined || o.tokenId !== besides);
  const text = offersLeftShortText(balance, pays, openOfferExposure(made));
  return text ? (
    <p className="field__error" data-testid="review-offers-short">
      {text}
    </p>
  ) : null;
}
