import { useQuery } from "@tanstack/react-query";
import { treasuryOffersSchema, type TreasuryOfferWire } from "#domain/wire/treasuryOffer";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

export type TreasuryOffer = TreasuryOfferWire;

/** GET /admin/treasury/offers: open offers on the treasury's notes, single-note and matching, with fee and proceeds. */
export async function getTreasuryOffers(): Promise<TreasuryOffer[]> {
  const { data } = await http.get<Envelope<unknown>>("/admin/treasury/offers");
  return treasuryOffersSchema.parse(data.data).offers;
}

export function useTreasuryOffers() {
  return useQuery({ queryKey: adminKeys.treasuryOffers, queryFn: getTreasuryOffers });
}
