import { Router, type RequestHandler } from "express";
import { z } from "zod";
import { buyNftSchema, listNftSchema, marketplaceQuerySchema, NFT_MESSAGES, tokenIdSchema, transferNftSchema } from "#domain/schemas/nfts";
import { ok } from "../http/envelope";
import { currentUser, requireAuth } from "../http/auth";
import type { TokenService } from "../auth/tokens";
import type { UsersRepository } from "../users/repository";
import { singleFlight } from "./singleFlight";
import { validate } from "../http/validate";
import type { NftsService } from "./service";
import type { OrdersService } from "../orders/service";
import { AppError } from "../http/errors";
import { NFT_ANSWERS } from "./texts";
import { toMarketplaceLoan } from "./wire";

// Exported for the API docs, which describe the queries with these same schemas.
export const portfolioQuery = z.object({
  page: z.coerce.number({ error: NFT_MESSAGES.page }).int(NFT_MESSAGES.page).min(1, NFT_MESSAGES.page).default(1),
  limit: z.coerce.number({ error: NFT_MESSAGES.limit }).int(NFT_MESSAGES.limit).min(1, NFT_MESSAGES.limit).max(100, NFT_MESSAGES.limit).default(10),
});

export const mirrorQuery = z.object({ minBlock: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0) });

const EMPTY_BOOK = { listings: [], offers: [], matchingOffers: [], bestOffer: null, late: [] };

/** The value of a read run beside others, or its error (the note's own first, as the caller checks it first). */
function settled<T>(result: PromiseSettledResult<T>): T {
  if (result.status === "rejected") throw result.reason;
  return result.value;
}

const tokenId = (value: unknown) => tokenIdSchema.parse(String(value));

export interface NftRouters {
  /** Mounted at /nfts. */
  nfts: Router;
  /** Mounted at /loans/marketplace: the same listings shaped as loans. */
  loansMarketplace: Router;
}

/**
 * The investor's routes. Reads come from the chain mirror; every action that moves a note
 * or money is checked here and answered as the call the user's wallet signs and sends.
 * The note's own page and owner history are public: an auditor needs no account.
 */
export function createNftRouters(deps: {
  service: NftsService;
  orders: Pick<OrdersService, "listingTypedData" | "unlistCall" | "book">;
  tokens: TokenService;
  users: Pick<UsersRepository, "findById">;
}): NftRouters {
  const { service } = deps;
  // The signed-in user is read per request, but a burst of requests of one user shares one read (still exact).
  const auth: RequestHandler = requireAuth(
    deps.tokens,
    singleFlight((id: string) => deps.users.findById(id)),
  );
  const nfts = Router();

  // Public, as a note's own page is: the listings are the same for everyone, and a shared link must show its price.
  nfts.get("/marketplace/browse", async (req, res) => {
    res.type("application/json").send(await service.browseJson(marketplaceQuerySchema.parse(req.query)));
  });

  nfts.get("/my-portfolio", auth, async (req, res) => {
    const { page, limit } = portfolioQuery.parse(req.query);
    ok(res, await service.portfolio(currentUser(req), page, limit));
  });

  nfts.get("/mirror", async (req, res) => {
    const { minBlock } = mirrorQuery.parse(req.query);
    ok(res, await service.mirror(minBlock));
  });

  nfts.get("/:id", async (req, res) => {
    ok(res, await service.get(tokenId(req.params.id)));
  });

  // A note's page in one answer: the note (terms, servicing, repayments, sales, listings), its order book and its
  // owners, read side by side, so a shared link shows its price and Buy after one round trip.
  nfts.get("/:id/page", async (req, res) => {
    const id = tokenId(req.params.id);
    const [note, book, owners] = await Promise.allSettled([service.get(id), deps.orders.book(id), service.ownership(id)]);
    const found = settled(note);
    // A repaid note has no book: its orders died with it, and the chain no longer knows the token.
    ok(res, { note: found, orderBook: found.burned ? EMPTY_BOOK : settled(book), ownership: settled(owners) });
  });

  nfts.get("/:id/ownership", async (req, res) => {
    ok(res, await service.ownership(tokenId(req.params.id)));
  });

  // A listing is a signed order: `typedData` is what the wallet signs and POSTs to /api/orders, for no gas;
  // `approval` is the one transaction a holder's first listing needs (null once the marketplace may move their notes).
  nfts.put("/:id/list", auth, validate(listNftSchema), async (req, res) => {
    const user = currentUser(req);
    const id = tokenId(req.params.id);
    const checked = await service.list(user, id, req.body);
    const { typedData } = await deps.orders.listingTypedData(user, id, req.body);
    ok(res, { ...checked, typedData }, NFT_ANSWERS.listReady);
  });

  // A signed listing can only be killed on-chain: cancelOrders for the caller's signed listings of the note, and the
  // on-chain listing's cancel when there is one.
  nfts.put("/:id/unlist", auth, async (req, res) => {
    const user = currentUser(req);
    const id = tokenId(req.params.id);
    const signed = await deps.orders.unlistCall(user, id);
    const onChain = await service.unlist(user, id).catch((error: unknown) => {
      if (signed && error instanceof AppError && error.status < 500) return null;
      throw error;
    });
    const calls = [onChain?.call, signed?.call].filter((c) => c !== undefined);
    ok(res, { tokenId: id.toString(), orderHashes: signed?.orderHashes ?? [], call: calls[0], calls }, NFT_ANSWERS.unlistReady);
  });

  nfts.post("/:id/buy", auth, validate(buyNftSchema), async (req, res) => {
    ok(res, await service.buy(currentUser(req), tokenId(req.params.id), req.body), NFT_ANSWERS.buyReady);
  });

  nfts.post("/:id/transfer", auth, validate(transferNftSchema), async (req, res) => {
    ok(res, await service.transfer(currentUser(req), tokenId(req.params.id), req.body), NFT_ANSWERS.transferReady);
  });

  const loansMarketplace = Router();
  loansMarketplace.get("/list", async (req, res) => {
    const text = await service.browseJson(marketplaceQuerySchema.parse(req.query), ({ nfts: records, ...rest }) => ({ loans: records.map(toMarketplaceLoan), ...rest }));
    res.type("application/json").send(text);
  });

  return { nfts, loansMarketplace };
}
