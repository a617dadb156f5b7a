import { z } from "zod";
import { tokenIdSchema } from "#domain/schemas/nfts";
import { matchingOffersSchema, myOrdersSchema, orderBookSchema, orderTypedDataSchema, wireOrderSchema } from "#domain/wire/order";
import { DEFAULT_RATE_LIMITS } from "../../http/rateLimit";
import type { OperationGroup } from "../types";

const LIMIT = `Each user may ask for ${DEFAULT_RATE_LIMITS.orderPublish.max} orders' typed data and publish ${DEFAULT_RATE_LIMITS.orderPublish.max} orders a minute (429 past that; by default).`;

const SIGNED =
  "Orders are EIP-712 messages signed off-chain (no gas) and filled on-chain by the marketplace (fillListing, acceptOffer, acceptMatchingOffer). Uints in `message` are decimal strings of on-chain units; amounts elsewhere are USD.";

export const ordersOperations: OperationGroup = {
  tag: "Orders",
  description: `Signed listings and offers on notes, at a fixed price or a percentage of par. ${SIGNED}`,
  operations: {
    "POST /api/orders/typed-data": {
      summary: "The order to sign",
      description: `Fills in the signer (my verified wallet), the on-chain counter, the note's change count, a random salt and the expiry. ${LIMIT}`,
      access: "user",
      example: { kind: "listing", tokenId: "1", priceKind: "par", parBps: 9900, expiresInDays: 30 },
      data: z.object({ typedData: orderTypedDataSchema }),
    },
    "POST /api/orders": {
      summary: "Publish a signed order",
      description: `Checks the signature (ECDSA 65-byte low-s, or EIP-1271), that the signer is my verified wallet with approved KYC, the expiry, the counter, the note's holder and state. An offer without balance or allowance is stored as \`unfunded\`. An offer from a contract wallet that does not answer onERC721Received with its selector is refused (400): a fill could not send it the note. A wallet may have ${DEFAULT_RATE_LIMITS.openOrders} unexpired orders that could still fill (409 past that; cancelling or letting one expire makes room). ${LIMIT}`,
      access: "user",
      status: 201,
      example: {
        kind: "listing",
        message: { seller: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", tokenId: "1", price: "0", parBps: "9900", changes: "0", maxDaysPastDue: "0", expiry: "1795000000", salt: "1", counter: "0" },
        signature: `0x${"11".repeat(65)}`,
      },
      data: wireOrderSchema,
    },
    "GET /api/orders/note/{tokenId}": {
      summary: "A note's order book",
      description: "Open listings, offers and matching offers this note fits, with the best offer.",
      access: "public",
      params: { tokenId: tokenIdSchema },
      data: orderBookSchema,
    },
    "GET /api/orders/mine": { summary: "Orders I made and offers I received", access: "user", data: myOrdersSchema },
    "GET /api/orders/matching": { summary: "Open offers on any matching note", access: "public", data: matchingOffersSchema },
  },
};
