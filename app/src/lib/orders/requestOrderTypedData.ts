import { orderTypedDataSchema, type OrderTypedData } from "#domain/wire/order";
import { http, type Envelope } from "../http";

/** What the form asks to sign: amounts as USD decimal strings, percentages of par in basis points, terms left in seconds. */
export interface OrderRequest {
  kind: "listing" | "offer" | "matchingOffer";
  tokenId?: string;
  priceKind: "fixed" | "par";
  price?: string;
  parBps?: number;
  cap?: string;
  ranges?: { minRateBps?: number; maxRateBps?: number; minTermLeft?: number; maxTermLeft?: number; minOutstanding?: string; maxOutstanding?: string };
  budget?: string;
  expiresInDays?: number;
  /** The most days past due a note may be at the fill; 0 (current notes only) is what every form signs. */
  maxDaysPastDue: number;
}

/** POST /orders/typed-data: the API fills in the signer, counter, the note's change count, salt and expiry. */
export async function requestOrderTypedData(body: OrderRequest): Promise<OrderTypedData> {
  const { data } = await http.post<Envelope<unknown>>("/orders/typed-data", body);
  const answer = data.data as { typedData?: unknown };
  return orderTypedDataSchema.parse(answer.typedData ?? answer);
}
