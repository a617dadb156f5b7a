import { marketplaceQuerySchema, tokenIdSchema } from "#domain/schemas/nfts";
import { mirrorQuery, portfolioQuery } from "../../nfts/router";
import type { OperationGroup } from "../types";

const token = { id: tokenIdSchema };
const CALL = "`data` is the transaction for the user's wallet to sign and send; the chain, not this call, moves the note.";

export const nftsOperations: OperationGroup = {
  tag: "NFTs",
  description: "Loan notes (ERC-721): the marketplace, a portfolio, a note's public page and history, and the wallet calls that move notes.",
  operations: {
    "GET /api/nfts/marketplace/browse": { summary: "Listed notes, filtered and paged", access: "public", query: marketplaceQuerySchema },
    "GET /api/loans/marketplace/list": {
      summary: "Listed notes shaped as loans",
      description:
        "`collateral` is the note's pledged NFT in the same shape as the other note views (null for an unsecured note): collection, id, name, image (a checked data URI, to show only as <img>), state, appraisal and loan-to-value.",
      access: "public",
      query: marketplaceQuerySchema,
    },
    "GET /api/nfts/my-portfolio": { summary: "Notes I hold (wallet or vault), notes of my loans, and credits waiting", access: "user", query: portfolioQuery },
    "GET /api/nfts/mirror": {
      summary: "How far the chain mirror has read",
      description:
        "The app waits with `minBlock` (up to 5 s) until a transaction it sent is mirrored. A block beyond the chain's head is 400 at once; when too many requests are waiting already, 503 with Retry-After.",
      access: "public",
      query: mirrorQuery,
    },
    "GET /api/nfts/{id}": { summary: "A note's public page", access: "public", params: token },
    "GET /api/nfts/{id}/page": {
      summary: "A note's page in one answer",
      description: "`note` as GET /api/nfts/{id}, `orderBook` as GET /api/orders/note/{tokenId} (empty for a repaid note), `ownership` as GET /api/nfts/{id}/ownership.",
      access: "public",
      params: token,
    },
    "GET /api/nfts/{id}/ownership": { summary: "A note's owners over time", access: "public", params: token },
    "PUT /api/nfts/{id}/list": {
      summary: "List my note for sale",
      description:
        "Answers `typedData`, the signed listing for the wallet to sign (no gas) and POST to /api/orders: at `listingPrice`, or with `parBps` at that share of the outstanding principal at the fill. `approval` is the one transaction a first listing needs (letting the marketplace move my notes), null after it.",
      access: "user",
      params: token,
      example: { listingPrice: "5100" },
    },
    "PUT /api/nfts/{id}/unlist": {
      summary: "Take my note off the market",
      description:
        "A signed listing lives until cancelled on-chain: `calls` holds `cancelOrders` for my signed listings of the note (and `cancel` for a listing made on the contract directly), for the wallet to send.",
      access: "user",
      params: token,
      body: { none: true },
    },
    "POST /api/nfts/{id}/buy": {
      summary: "Buy a listed note",
      description: "First call: the permit to sign for the price. Second call with `signature` and `deadline`: the purchase transaction.",
      access: "user",
      params: token,
      example: { expectedPrice: "5100" },
    },
    "POST /api/nfts/{id}/transfer": {
      summary: "Deposit a note into the vault, or withdraw it",
      description: CALL,
      access: "user",
      params: token,
      example: { fromAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", toAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", reason: "Safekeeping" },
    },
  },
};
