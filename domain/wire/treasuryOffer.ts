import { z } from "zod";
import { wireOrderSchema } from "./order";

/** An open offer on a treasury note as an admin reviews it: the order, the marketplace's fee and what the treasury receives. */
export const treasuryOfferSchema = wireOrderSchema.extend({ fee: z.string(), proceeds: z.string() });
export type TreasuryOfferWire = z.infer<typeof treasuryOfferSchema>;

/** GET /api/admin/treasury/offers. */
export const treasuryOffersSchema = z.object({ offers: z.array(treasuryOfferSchema) });

/** POST /api/admin/treasury/offers/{hash}/accept: the sale as it was sent. */
export const treasuryAcceptanceSchema = z.object({
  hash: z.string(),
  tokenId: z.string(),
  buyer: z.string(),
  price: z.string(),
  fee: z.string(),
  proceeds: z.string(),
  txHash: z.string(),
});
