import { hashTypedData, type Address, type Hex } from "viem";
import type { NewOrderRow, OrderRow } from "#db/schema";
import { loanNoteAbi, noteMarketplaceAbi } from "#domain/abis";
import { ORDER_TYPES, PAR_BPS, orderDomain, type SignedListing } from "#domain/orders";
import type { OrderStatus } from "#domain/orders";
import type { ChainGateway } from "../chain/gateway";
import type { OrderAnnouncer } from "../orders/announce";

/** The order book as the treasury's listings need it (api/src/orders/repository.ts). */
export interface TreasuryOrders {
  insert(row: Omit<NewOrderRow, "chainId">): Promise<OrderRow | null>;
  onNote(tokenId: bigint, statuses: readonly OrderStatus[]): Promise<OrderRow[]>;
  setStatus(hash: string, status: OrderStatus, reason: string | null, filled: bigint): Promise<void>;
}

export interface TreasuryListingDeps {
  chain: ChainGateway;
  orders: TreasuryOrders;
  announcer?: Pick<OrderAnnouncer, "stored">;
  logger?: { warn(obj: unknown, msg?: string): void };
}

/** A salt no other listing shares: 128 random bits. */
function randomSalt(): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
}

/**
 * The treasury's standing listings of a note (normally one): open, or waiting for a late borrower to catch up (such a
 * listing fills again once the loan is current, so the note is never listed twice).
 */
export async function openTreasuryListings(deps: TreasuryListingDeps, tokenId: bigint): Promise<OrderRow[]> {
  const treasury = deps.chain.address("treasury").toLowerCase();
  return (await deps.orders.onNote(tokenId, ["open", "late"])).filter((order) => order.kind === "listing" && order.signer === treasury);
}

/**
 * Signs a listing of `tokenId` by the treasury with its key (no transaction, no gas), stores it in the order book and
 * announces it. At par (`parBps` 10,000, price 0) it stays valid across repayments and lapses on a default or a move,
 * so it is signed once per note; a fixed `price` binds the note's change count, as an admin's reprice does. It runs
 * until the note's maturity: past it every installment is due, so an unpaid note can only be late. It fills only
 * while the note is current (maxDaysPastDue 0) and is never signed for a late note.
 */
export async function signTreasuryListing(deps: TreasuryListingDeps, tokenId: bigint, price: { parBps: bigint } | { price: bigint }): Promise<OrderRow> {
  const { chain, orders } = deps;
  const deployment = await chain.deployment();
  const loanNote = deployment.contracts.loanNote as Address;
  const marketplace = deployment.contracts.marketplace as Address;
  const seller = chain.address("treasury");
  const [state, counter, chainId, latest] = await Promise.all([
    chain.publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "noteStateOf", args: [tokenId] }),
    chain.publicClient.readContract({ address: marketplace, abi: noteMarketplaceAbi, functionName: "counterOf", args: [seller] }),
    chain.publicClient.getChainId(),
    chain.publicClient.getBlock({ blockTag: "latest" }),
  ]);
  if (state.daysPastDue > 0n) throw new NoteLateError(tokenId, Number(state.daysPastDue));
  const message: SignedListing = {
    seller,
    tokenId,
    price: "price" in price ? price.price : 0n,
    parBps: "parBps" in price ? price.parBps : 0n,
    changes: BigInt(state.changes),
    maxDaysPastDue: 0n,
    expiry: state.maturity,
    salt: randomSalt(),
    counter,
  };
  const typedData = { domain: orderDomain(chainId, marketplace), types: ORDER_TYPES, primaryType: "Listing" as const, message };
  const signature: Hex = await chain.signTypedData("treasury", typedData);
  const hash = hashTypedData(typedData).toLowerCase();
  const stored = await orders.insert({
    hash,
    kind: "listing",
    signer: seller.toLowerCase(),
    tokenId,
    price: message.price,
    parBps: Number(message.parBps),
    changes: message.changes,
    maxDaysPastDue: 0n,
    expiry: message.expiry,
    salt: message.salt,
    counter: message.counter,
    signature,
    status: "open",
    chainTime: new Date(Number(latest.timestamp) * 1000),
  });
  if (!stored) throw new Error(`the treasury's listing ${hash} of note ${tokenId} was stored already`);
  await deps.announcer?.stored(stored).catch((error) => deps.logger?.warn({ err: error, hash }, "could not announce the treasury's listing"));
  return stored;
}

/** The treasury never signs a listing of a late note: it could not fill, and a buyer would see it as current. */
export class NoteLateError extends Error {
  constructor(
    readonly tokenId: bigint,
    readonly daysPastDue: number,
  ) {
    super(`note ${tokenId} is ${daysPastDue} days past due: the treasury lists it once its borrower is current again`);
  }
}

/** At 100% of par: the one listing the treasury signs for each new note. */
export const AT_PAR = { parBps: PAR_BPS } as const;
