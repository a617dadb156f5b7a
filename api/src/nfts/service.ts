import { BaseError, encodeFunctionData, concat, stringToHex, zeroAddress, type Address, type Hex, type PublicClient } from "viem";
import { permitSignatureParts, permitTypedData } from "#domain/permit";
import type { OrderRow, UserRow } from "#db/schema";
import { parPrice, type SignedListing } from "#domain/orders";
import { isExpired } from "#domain/orderStatus";
import { loanNoteAbi, noteMarketplaceAbi, noteVaultAbi, testDollarAbi } from "#domain/abis";
import type { Deployment } from "#domain/deployment";
import { formatUsdAmount, parseUsd } from "#domain/money";
import { parSplit } from "#domain/servicingRecord";
import { chainNow } from "../chain/chainClock";
import { lateFeeParamsOf } from "../chain/lateFeeParams";
import type { z } from "zod";
import type { buyNftSchema, listNftSchema, transferNftSchema } from "#domain/schemas/nfts";
import { AppError, badRequest, notFound } from "../http/errors";
import type { AppConfig } from "../config/env";
import { readDeployment } from "../config/deployment";
import { createMarketplaceIndex, type MarketplaceOrders } from "./browse";
import { bindDeps } from "../deps";
import { servicedLoanOf, type NftsRepository } from "./repository";
import { NFT_ANSWERS } from "./texts";
import { toNftRecord, type WireContext } from "./wire";

const PERMIT_TTL_SECONDS = 30n * 60n;

type ListInput = z.infer<typeof listNftSchema>;
type BuyInput = z.infer<typeof buyNftSchema>;
type TransferInput = z.infer<typeof transferNftSchema>;

export interface Call {
  to: Address;
  data: Hex;
  value: "0";
  chainId: number;
}

const lower = (a: string) => a.toLowerCase();
const refused = (status: number, message: string) => new AppError(status, message);

export interface NftsServiceDeps {
  config: AppConfig;
  repo: NftsRepository;
  /** The signed orders the marketplace shows beside the on-chain listings. */
  orders: MarketplaceOrders;
  publicClient: PublicClient;
  maxMirrorWaiters: number;
}

/** What the operations share in one process besides the services: the mirror's waiters. */
export interface NftsDeps extends NftsServiceDeps {
  /** Mirror reads of this process waiting for the indexer now (each polls the database until it catches up). */
  waiting: { mirror: number };
}

const call = (d: Deployment, to: string, data: Hex): Call => ({ to: to as Address, data, value: "0", chainId: d.chainId });

async function deployment(deps: NftsDeps): Promise<Deployment> {
  const { config } = deps;
  const found = await readDeployment(config.dataDir, config.chainId).catch(() => null);
  if (!found) throw new AppError(503, NFT_ANSWERS.noDeployment);
  return found;
}

async function wireContext(deps: NftsDeps): Promise<WireContext> {
  const { config } = deps;
  const d = await readDeployment(config.dataDir, config.chainId).catch(() => null);
  const [now, fees] = await Promise.all([chainNow(deps.publicClient), lateFeeParamsOf(deps.publicClient, d)]);
  return { chainId: config.chainId, loanNote: d?.contracts.loanNote ?? null, vault: d ? lower(d.contracts.vault) : null, explorerUrl: config.explorerUrl, now, fees };
}

/** Chain reads for a decision; an unreachable node is a 503, never a 500. */
async function read<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof BaseError && /revert/i.test(error.message)) throw error;
    throw new AppError(503, NFT_ANSWERS.chainDown);
  }
}

/** Who owns the note on-chain now; a note never minted or burned is not found. */
async function ownerOf(deps: NftsDeps, d: Deployment, tokenId: bigint): Promise<string> {
  const { publicClient } = deps;
  try {
    const owner = await publicClient.readContract({ address: d.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "ownerOf", args: [tokenId] });
    return lower(owner);
  } catch (error) {
    if (error instanceof BaseError && /revert|ERC721NonexistentToken/i.test(error.message)) throw notFound(NFT_ANSWERS.notFound);
    throw new AppError(503, NFT_ANSWERS.chainDown);
  }
}

async function liveListing(deps: NftsDeps, d: Deployment, tokenId: bigint): Promise<Listed> {
  const { publicClient } = deps;
  const [[seller, price], [, , daysPastDue]] = await Promise.all([
    read(publicClient.readContract({ address: d.contracts.marketplace as Address, abi: noteMarketplaceAbi, functionName: "listingOf", args: [tokenId] })),
    read(publicClient.readContract({ address: d.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "ownershipOf", args: [tokenId] })),
  ]);
  // A plain listing never sells a late note (NoteMarketplace.buy).
  if (seller !== zeroAddress && daysPastDue > 0n) return { seller: zeroAddress, price: 0n, late: Number(daysPastDue) };
  return { seller: lower(seller), price };
}

/** A stored signed listing as the contract takes it. */
function listingMessage(order: OrderRow): SignedListing {
  return {
    seller: order.signer as Address,
    tokenId: order.tokenId!,
    price: order.price,
    parBps: BigInt(order.parBps),
    changes: order.changes ?? 0n,
    maxDaysPastDue: order.maxDaysPastDue,
    expiry: order.expiry,
    salt: order.salt,
    counter: order.counter,
  };
}

/**
 * What a signed listing sells for now, as the contract would price its fill: a fixed price while the note's change
 * count is the signed one, a par price (the dirty price) while the note is active; either only while its seller holds
 * the note, before its expiry, and while the note is no later than the listing accepts. A listing that cannot fill
 * reads as no listing (zero seller), saying whether it expired or the note is late.
 */
async function signedListingNow(deps: NftsDeps, d: Deployment, order: OrderRow): Promise<Listed> {
  const { publicClient } = deps;
  const none = { seller: zeroAddress as string, price: 0n };
  const [state, block] = await Promise.all([
    read(publicClient.readContract({ address: d.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "noteStateOf", args: [order.tokenId!] })),
    read(publicClient.getBlock()),
  ]);
  if (isExpired(order.expiry, block.timestamp)) return { ...none, expired: true };
  // In the contract's order: the note moved or changed (a stale order) before it is late.
  if (lower(state.owner) !== order.signer) return none;
  if (order.parBps === 0 ? BigInt(state.changes) !== order.changes : state.status !== 1) return none;
  if (state.daysPastDue > order.maxDaysPastDue) return { ...none, late: Number(state.daysPastDue) };
  const split = { principal: state.outstanding, interest: state.interest };
  return { seller: order.signer, price: order.parBps === 0 ? order.price : parPrice(split, BigInt(order.parBps)) };
}

/** A listing a buy can fill now, or why none can: zero seller, with `expired` or `late` (days past due) when known. */
interface Listed {
  seller: string;
  price: bigint;
  expired?: boolean;
  late?: number;
}

function wallet(user: UserRow): Address {
  if (!user.walletAddress) throw badRequest(NFT_ANSWERS.walletRequired);
  return lower(user.walletAddress) as Address;
}

/**
 * Read-your-writes for the wallet's own transactions: waits (up to `timeoutMs`) until the mirror has indexed
 * `minBlock`, so the next read shows what the user just did. A block the chain has not reached is refused at
 * once, and at most `maxMirrorWaiters` requests wait at a time: waiting must not become a way to hold the server.
 */
export async function mirror(deps: NftsDeps, minBlock: number, timeoutMs = 5000) {
  const { repo, publicClient, waiting } = deps;
  let block = await repo.mirrorBlock();
  if (block >= minBlock) return { blockNumber: block, caughtUp: true };
  if (waiting.mirror >= deps.maxMirrorWaiters) throw new AppError(503, NFT_ANSWERS.mirrorBusy, null, 1);
  waiting.mirror += 1;
  try {
    // Uncached: the block of a receipt just received is the head, and must not look like the future.
    const head = await read(publicClient.getBlockNumber({ cacheTime: 0 }));
    if (BigInt(minBlock) > head) throw badRequest(NFT_ANSWERS.beyondHead(minBlock, head));
    const until = Date.now() + timeoutMs;
    while (block < minBlock && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      block = await repo.mirrorBlock();
    }
    return { blockNumber: block, caughtUp: block >= minBlock };
  } finally {
    waiting.mirror -= 1;
  }
}

export async function get(deps: NftsDeps, tokenId: bigint) {
  const { repo } = deps;
  const row = await repo.note(tokenId);
  if (!row) throw notFound(NFT_ANSWERS.notFound);
  const ctx = await wireContext(deps);
  const [repayments, sales, listings] = await Promise.all([repo.repayments(tokenId), repo.sales(tokenId), repo.listings(tokenId)]);
  const record = toNftRecord(row, ctx);
  const iso = (t: Date | string | null) => (t ? new Date(t).toISOString() : null);
  return {
    ...record,
    terms: {
      principal: record.metadata.loanDetails.amount,
      interestRate: record.metadata.loanDetails.interestRate,
      rateBps: row.rate_bps,
      termMonths: row.term_months,
      startTime: Number(row.start_time),
    },
    noteStatus: row.status,
    burned: row.burned,
    depositor: row.depositor,
    repayments: repayments.map((r) => ({
      payer: r.payer,
      beneficiary: r.beneficiary,
      amount: formatUsdAmount(BigInt(r.amount)),
      totalRepaid: formatUsdAmount(BigInt(r.total_repaid)),
      txHash: r.tx_hash,
      blockNumber: Number(r.block_number),
      time: iso(r.block_time),
    })),
    sales: sales.map((s) => ({
      seller: s.seller,
      buyer: s.buyer,
      price: formatUsdAmount(BigInt(s.price)),
      fee: formatUsdAmount(BigInt(s.fee)),
      txHash: s.tx_hash,
      blockNumber: Number(s.block_number),
      time: iso(s.block_time),
    })),
    listings: listings.map((l) => ({
      seller: l.seller,
      price: formatUsdAmount(l.par_bps > 0 ? parPrice(parSplit(servicedLoanOf(row), ctx.now, ctx.fees), BigInt(l.par_bps)) : BigInt(l.price)),
      status: l.status,
      lapseReason: l.lapse_reason,
      lapseAmount: l.lapse_amount === null ? null : formatUsdAmount(BigInt(l.lapse_amount)),
      txHash: l.tx_hash,
      closedTxHash: l.closed_tx_hash,
      blockNumber: Number(l.block_number),
      time: iso(l.block_time),
    })),
  };
}

/** GET /nfts/{id}/ownership: every move of the note from the transfers mirror, with what it was. */
export async function ownership(deps: NftsDeps, tokenId: bigint) {
  const { repo } = deps;
  const row = await repo.note(tokenId);
  if (!row) throw notFound(NFT_ANSWERS.notFound);
  const moves = await repo.transfers(tokenId);
  const history = moves.map((m) => ({
    kind:
      m.from_address === zeroAddress
        ? "mint"
        : m.to_address === zeroAddress
          ? "burn"
          : m.sale_price !== null
            ? "sale"
            : m.vault_kind === "deposit"
              ? "vault_deposit"
              : m.vault_kind === "withdraw"
                ? "vault_withdraw"
                : "transfer",
    from: m.from_address,
    to: m.to_address,
    price: m.sale_price !== null ? formatUsdAmount(BigInt(m.sale_price)) : null,
    txHash: m.tx_hash,
    blockNumber: Number(m.block_number),
    time: m.block_time ? new Date(m.block_time).toISOString() : null,
  }));
  const owners: string[] = [];
  for (const m of moves) if (m.to_address !== zeroAddress && !owners.includes(m.to_address)) owners.push(m.to_address);
  return {
    tokenId: row.token_id,
    currentOwner: row.burned ? null : row.owner,
    holder: row.burned ? null : row.holder,
    inVault: row.depositor !== null,
    previousOwners: owners.filter((o) => o !== row.owner),
    history,
  };
}

/**
 * PUT /nfts/{id}/list: the caller's wallet must hold the note (not in the vault). A listing is a signed order,
 * which the route answers beside this; here only the one transaction a first listing needs: letting the marketplace
 * move the holder's notes, without which no signed listing of theirs can be filled.
 */
export async function list(deps: NftsDeps, user: UserRow, tokenId: bigint, input: ListInput) {
  const { publicClient } = deps;
  const me = wallet(user);
  if (input.listingPrice > 2n ** 64n - 1n) throw badRequest(NFT_ANSWERS.priceTooHigh);
  const d = await deployment(deps);
  const owner = await ownerOf(deps, d, tokenId);
  if (owner === lower(d.contracts.vault)) {
    const depositor = lower(await read(publicClient.readContract({ address: d.contracts.vault as Address, abi: noteVaultAbi, functionName: "depositorOf", args: [tokenId] })));
    throw depositor === me ? badRequest(NFT_ANSWERS.inVault) : refused(403, NFT_ANSWERS.notOwner);
  }
  if (owner !== me) throw refused(403, NFT_ANSWERS.notOwner);
  const marketplace = d.contracts.marketplace as Address;
  const approvedForAll = await read(publicClient.readContract({ address: d.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "isApprovedForAll", args: [me, marketplace] }));
  const approval = approvedForAll ? null : call(d, d.contracts.loanNote, encodeFunctionData({ abi: loanNoteAbi, functionName: "setApprovalForAll", args: [marketplace, true] }));
  return { tokenId: tokenId.toString(), listingPrice: formatUsdAmount(input.listingPrice), approval };
}

/** PUT /nfts/{id}/unlist: only the seller; a stale listing can still be cancelled. */
export async function unlist(deps: NftsDeps, user: UserRow, tokenId: bigint) {
  const { repo } = deps;
  const me = wallet(user);
  const d = await deployment(deps);
  const [listing, row] = await Promise.all([liveListing(deps, d, tokenId), repo.note(tokenId)]);
  // The mirror's on-chain listing only (a signed one shown in its place has no transaction): signed ones are cancelled
  // by cancelOrders, which the route answers beside this.
  const onChainRow = row?.listing_tx_hash ? row.listing_seller : null;
  const seller = listing.seller !== zeroAddress ? listing.seller : onChainRow;
  if (!seller) throw badRequest(NFT_ANSWERS.notListed);
  if (seller !== me) throw refused(403, NFT_ANSWERS.notSeller);
  return {
    tokenId: tokenId.toString(),
    call: call(d, d.contracts.marketplace, encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "cancel", args: [tokenId] })),
  };
}

/**
 * POST /nfts/{id}/buy: approved KYC, a verified wallet, a live listing at the price the buyer saw and the
 * money to pay it. Answers the permit to sign; sent again with the signature, the buyWithPermit call.
 */
export async function buy(deps: NftsDeps, user: UserRow, tokenId: bigint, input: BuyInput) {
  const { repo, publicClient } = deps;
  if (user.kycStatus !== "approved") throw refused(403, NFT_ANSWERS.kycRequired);
  const me = wallet(user);
  const d = await deployment(deps);
  const [onChainListing, row] = await Promise.all([liveListing(deps, d, tokenId), repo.note(tokenId)]);
  // No listing on-chain: the holder's open signed listing, filled at its price now.
  const signed = onChainListing.seller === zeroAddress && row?.order_hash ? await repo.signedListing(row.order_hash) : undefined;
  const listing = signed ? await signedListingNow(deps, d, signed) : onChainListing;
  if (listing.seller === zeroAddress) {
    if (row?.burned) throw refused(409, NFT_ANSWERS.repaid);
    if (listing.expired) throw refused(409, NFT_ANSWERS.expired);
    if (listing.late !== undefined) throw refused(409, NFT_ANSWERS.late(listing.late));
    // Say why the chain refuses: the mirror knows why a listing lapsed, or may still show it live.
    if (row?.lapse_reason) throw refused(409, NFT_ANSWERS.lapsed(row.lapse_reason));
    throw refused(409, row?.listing_price ? NFT_ANSWERS.stale : NFT_ANSWERS.notListed);
  }
  if (listing.price !== input.expectedPrice) throw refused(409, NFT_ANSWERS.priceChanged(listing.price));
  if (listing.seller === me) throw badRequest(NFT_ANSWERS.ownNote);
  const token = d.contracts.stablecoin as Address;
  const marketplace = d.contracts.marketplace as Address;
  const [balance, domain, nonce, block] = await Promise.all([
    read(publicClient.readContract({ address: token, abi: testDollarAbi, functionName: "balanceOf", args: [me] })),
    read(publicClient.readContract({ address: token, abi: testDollarAbi, functionName: "eip712Domain" })),
    read(publicClient.readContract({ address: token, abi: testDollarAbi, functionName: "nonces", args: [me] })),
    read(publicClient.getBlock()),
  ]);
  if (balance < listing.price) throw badRequest(NFT_ANSWERS.funds(balance, listing.price));
  const deadline = BigInt(input.deadline ?? block.timestamp + PERMIT_TTL_SECONDS);
  const permit = permitTypedData({ domain, owner: me, spender: marketplace, value: listing.price, nonce, deadline });
  const message = signed ? listingMessage(signed) : null;
  const calls: Record<string, Call> = {
    approve: call(d, token, encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [marketplace, listing.price] })),
    buy: call(
      d,
      marketplace,
      signed
        ? encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "fillListing", args: [message!, signed.signature as Hex, listing.price] })
        : encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "buy", args: [tokenId, listing.price] }),
    ),
  };
  if (input.signature) {
    const { v, r, s } = permitSignatureParts(input.signature as Hex);
    calls.buyWithPermit = call(
      d,
      marketplace,
      signed
        ? encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "fillListingWithPermit", args: [message!, signed.signature as Hex, listing.price, deadline, v, r, s] })
        : encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "buyWithPermit", args: [tokenId, listing.price, deadline, v, r, s] }),
    );
  }
  return {
    tokenId: tokenId.toString(),
    price: formatUsdAmount(listing.price),
    seller: listing.seller,
    buyer: me,
    permit,
    deadline: deadline.toString(),
    calls,
    /** The one transaction to send after signing: present once the signature was sent back. */
    call: calls.buyWithPermit ?? null,
    /** The signed listing the call fills, when the note is listed by signature rather than on-chain. */
    orderHash: signed?.hash ?? null,
  };
}

/**
 * POST /nfts/{id}/transfer: from the caller's verified wallet to another address; to the vault it is a
 * deposit, from the vault a withdrawal by the depositor. The reason rides in the transaction's data.
 */
export async function transfer(deps: NftsDeps, user: UserRow, tokenId: bigint, input: TransferInput) {
  const { publicClient } = deps;
  const me = wallet(user);
  const d = await deployment(deps);
  const vault = lower(d.contracts.vault);
  const from = lower(input.fromAddress);
  const to = lower(input.toAddress);
  if (from === to) throw badRequest(NFT_ANSWERS.sameAddress);
  if (to === zeroAddress) throw badRequest(NFT_ANSWERS.sameAddress);
  const owner = await ownerOf(deps, d, tokenId);
  const note = (data: Hex) => call(d, d.contracts.loanNote, data);
  const reason = input.reason ? stringToHex(input.reason) : "0x";
  if (from === vault) {
    if (owner !== vault) throw badRequest(NFT_ANSWERS.notInVault);
    const depositor = lower(await read(publicClient.readContract({ address: d.contracts.vault as Address, abi: noteVaultAbi, functionName: "depositorOf", args: [tokenId] })));
    if (depositor !== me) throw refused(403, NFT_ANSWERS.notDepositor);
    // Solidity ignores calldata past the arguments: the reason stays readable in the transaction's input.
    const data = concat([encodeFunctionData({ abi: noteVaultAbi, functionName: "withdraw", args: [tokenId, to as Address] }), reason]);
    return { kind: "withdraw" as const, tokenId: tokenId.toString(), from, to, reason: input.reason ?? null, call: call(d, d.contracts.vault, data) };
  }
  if (from !== me) throw refused(403, NFT_ANSWERS.fromWallet);
  if (owner === vault) throw badRequest(NFT_ANSWERS.inVault);
  if (owner !== me) throw refused(403, NFT_ANSWERS.notOwner);
  const data = encodeFunctionData({ abi: loanNoteAbi, functionName: "safeTransferFrom", args: [me, to as Address, tokenId, reason] });
  return { kind: to === vault ? ("deposit" as const) : ("transfer" as const), tokenId: tokenId.toString(), from, to, reason: input.reason ?? null, call: note(data) };
}

/** GET /nfts/my-portfolio: notes held (wallet or vault), notes of the user's loans, and credits waiting. */
export async function portfolio(deps: NftsDeps, user: UserRow, page: number, limit: number) {
  const { config, repo } = deps;
  const me = user.walletAddress ? lower(user.walletAddress) : null;
  const ctx = await wireContext(deps);
  const [held, ofLoans, credits, moves] = await Promise.all([
    me ? repo.held(me) : Promise.resolve([]),
    repo.ofLoans(user.id, me),
    me ? repo.credits(me) : Promise.resolve({ credited: 0n, withdrawn: 0n }),
    me ? repo.vaultMoves(me) : Promise.resolve([]),
  ]);
  const shape = (row: (typeof held)[number]) => toNftRecord(row, ctx);
  const nfts = held.map(shape);
  const loanNotes = ofLoans.map(shape);
  const available = credits.credited - credits.withdrawn;
  const outstanding = nfts.reduce((acc, n) => acc + parseUsd(n.outstandingBalance), 0n);
  const rates = nfts.map((n) => n.metadata.loanDetails.interestRate);
  const d = ctx.loanNote;
  const start = (page - 1) * limit;
  return {
    walletAddress: me,
    nfts: nfts.slice(start, start + limit),
    loanNotes,
    credits: {
      credited: formatUsdAmount(credits.credited),
      withdrawn: formatUsdAmount(credits.withdrawn),
      available: formatUsdAmount(available),
      withdrawCall: available > 0n && d ? { to: d, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "withdrawCredits" }), value: "0", chainId: config.chainId } : null,
    },
    vaultHistory: moves.map((m) => ({ tokenId: m.token_id, kind: m.kind, txHash: m.tx_hash, blockNumber: Number(m.block_number), time: m.block_time ? new Date(m.block_time).toISOString() : null })),
    stats: {
      totalLoans: nfts.length,
      totalValue: formatUsdAmount(outstanding),
      totalRepaid: formatUsdAmount(credits.credited),
      avgRate: rates.length ? Math.round((rates.reduce((a, b) => a + b, 0) / rates.length) * 100) / 100 : 0,
      activeCount: nfts.filter((n) => n.isActive).length,
      portfolioValue: formatUsdAmount(outstanding + available),
    },
    pagination: { page, limit, total: nfts.length, totalPages: Math.max(1, Math.ceil(nfts.length / limit)) },
  };
}

/** The operations bound to their dependencies, as the routers hold them (docs/decisions.md "Services"). */
/** The marketplace index and the operations bound to one process's state, as the routers hold them (docs/decisions.md "Services"). */
export function createNftsService(services: NftsServiceDeps) {
  const deps: NftsDeps = { ...services, waiting: { mirror: 0 } };
  const index = createMarketplaceIndex({ repo: deps.repo, orders: deps.orders, wireContext: () => wireContext(deps) });
  return { browse: index.browse, browseJson: index.browseJson, ...bindDeps(deps, { mirror, get, ownership, list, unlist, buy, transfer, portfolio }) };
}

export type NftsService = ReturnType<typeof createNftsService>;
