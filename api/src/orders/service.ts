import { randomBytes } from "node:crypto";
import { BaseError, encodeFunctionData, hashTypedData, maxUint256, recoverAddress, size, sliceHex, type Address, type Hex, type PublicClient } from "viem";
import type { OrderRow } from "#db/schema/orders";
import type { UserRow } from "#db/schema";
import { loanNoteAbi, noteMarketplaceAbi, testDollarAbi } from "#domain/abis";
import type { Deployment } from "#domain/deployment";
import { ORDER_TYPES, PRIMARY_TYPES, orderDomain, parPrice, type OrderStatus } from "#domain/orders";
import { isExpired, matchingMinPrice, NOTE_STATUS, orderStatusOf, type NoteFacts, type OrderFacts, type OrderVerdict } from "#domain/orderStatus";
import {
  DEFAULT_MIN_TERM_LEFT,
  MAX_DAYS_PAST_DUE_LIMITS,
  ORDER_EXPIRY_DAYS,
  PAR_BPS_LIMITS,
  type OrderBook,
  type OrderSubmission,
  type OrderTypedData,
  type OrderTypedDataRequest,
  type WireOrder,
} from "#domain/wire/order";
import { bindDeps } from "../deps";
import type { AppConfig } from "../config/env";
import { readDeployment } from "../config/deployment";
import { noteHolder } from "../chain/noteHolder";
import { AppError, badRequest, conflict } from "../http/errors";
import type { OrderAnnouncer } from "./announce";
import type { OrdersRepository } from "./repository";
import { canReceiveNotes } from "./receiverCheck";
import { ORDER_ANSWERS } from "./texts";
import { messageOf, termsOf, toWireOrder } from "./wire";
import { createBatchedFillSimulator, type FillSimulator } from "./simulateFill";
import { createBlockBatch, type BlockBatch } from "./blockBatch";

export interface OrdersDeps {
  config: AppConfig;
  repo: OrdersRepository;
  publicClient: PublicClient;
  /** Pushes and notices for an order stored (api/src/orders/announce.ts); none in a service built without sockets. */
  announcer?: Pick<OrderAnnouncer, "stored">;
  logger?: { warn(obj: unknown, msg?: string): void };
  /** Unexpired orders one signer may have that could still fill (RateLimits.openOrders). */
  maxOpenOrders: number;
}

/** Statuses that may still change back to open (the chain can move again); the others are final. */
const LIVE: readonly OrderStatus[] = ["open", "lapsed", "late", "unfunded"];
const DAY = 86_400n;
/** secp256k1's n / 2: OpenZeppelin's ECDSA, and so the marketplace, refuses a signature whose s is above it. */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;
const MAX_INT4 = 2_147_483_647n;
const ERC1271_MAGIC = "0x1626ba7e";
const erc1271Abi = [
  {
    type: "function",
    name: "isValidSignature",
    stateMutability: "view",
    inputs: [
      { name: "hash", type: "bytes32" },
      { name: "signature", type: "bytes" },
    ],
    outputs: [{ name: "", type: "bytes4" }],
  },
] as const;

const lower = (a: string) => a.toLowerCase();

interface NoteState extends NoteFacts {
  rateBps: bigint;
  maturity: bigint;
}

async function deployment(deps: OrdersDeps): Promise<Deployment> {
  const found = await readDeployment(deps.config.dataDir, deps.config.chainId).catch(() => null);
  if (!found) throw new AppError(503, ORDER_ANSWERS.noDeployment);
  return found;
}

/** Chain reads for a decision; an unreachable node is a 503, never a 500. */
async function read<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(503, ORDER_ANSWERS.chainDown);
  }
}

function wallet(user: UserRow): Address {
  if (!user.walletAddress) throw badRequest(ORDER_ANSWERS.walletRequired);
  return lower(user.walletAddress) as Address;
}

function tradingWallet(user: UserRow): Address {
  const me = wallet(user);
  if (user.kycStatus !== "approved") throw new AppError(403, ORDER_ANSWERS.kycRequired);
  return me;
}

// ------------------------------------------------------------------ chain facts

/**
 * The chain reads the order rule needs, each made once per answer however many orders share it, all at the latest
 * block and gathered into one call per turn with the block's simulations (api/src/orders/blockBatch.ts).
 */
function chainReader(deps: OrdersDeps, d: Deployment) {
  const { publicClient } = deps;
  const marketplace = d.contracts.marketplace as Address;
  const loanNote = d.contracts.loanNote as Address;
  const memo = <K, V>(load: (key: K) => Promise<V>) => {
    const cache = new Map<string, Promise<V>>();
    return (key: K) => {
      const id = String(key);
      if (!cache.has(id)) cache.set(id, read(load(key)));
      return cache.get(id)!;
    };
  };
  let latest: Promise<{ number: bigint; timestamp: bigint }> | null = null;
  const head = () => (latest ??= read(publicClient.getBlock({ blockTag: "latest" }).then((b) => ({ number: b.number, timestamp: b.timestamp }))));
  const reader = async () => batchAt(publicClient, (await head()).number);
  const simulator = simulatorFor(publicClient, d);
  return {
    /** The latest block's time: what expiry and terms left are judged against. */
    now: () => head().then((b) => b.timestamp),
    /**
     * Why a fill of `order` on note `tokenId` (owned by `owner`) at `price` would fail in the latest block, asked of the
     * chain (api/src/orders/simulateFill.ts); null when it would go through, or when the node could not say.
     */
    async refusal(order: OrderRow, tokenId: bigint, owner: string, price: bigint): Promise<string | null> {
      const { number } = await head();
      return simulator.simulate(order, { tokenId, owner: owner as Address, price, block: number }).catch(() => null);
    },
    counter: memo(async (signer: string) => (await reader()).readContract({ address: marketplace, abi: noteMarketplaceAbi, functionName: "counterOf", args: [signer as Address] })),
    usage: memo(async (key: string) => {
      const [signer, hash] = key.split(":");
      const [used, filled] = await (await reader()).readContract({ address: marketplace, abi: noteMarketplaceAbi, functionName: "orderStatus", args: [signer as Address, hash as Hex] });
      return { used, filled };
    }),
    note: memo(async (tokenId: bigint): Promise<NoteState> => {
      const batch = await reader();
      const state = await batch.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "noteStateOf", args: [tokenId] });
      const holder = await noteHolder(batch, d, tokenId, state.owner);
      return {
        owner: lower(state.owner),
        holder,
        status: Number(state.status),
        rateBps: state.rateBps,
        maturity: state.maturity,
        outstanding: state.outstanding,
        interest: state.interest,
        daysPastDue: Number(state.daysPastDue),
        changes: BigInt(state.changes),
      };
    }),
    funds: memo(async (buyer: string) => {
      const token = d.contracts.stablecoin as Address;
      const batch = await reader();
      const [balance, allowance] = await Promise.all([
        batch.readContract({ address: token, abi: testDollarAbi, functionName: "balanceOf", args: [buyer as Address] }),
        batch.readContract({ address: token, abi: testDollarAbi, functionName: "allowance", args: [buyer as Address, marketplace] }),
      ]);
      return { balance, allowance };
    }),
    /** How many OrderFilled logs each hash has (only asked for the orders the other facts say may have filled). */
    async fills(hashes: string[]): Promise<Map<string, number>> {
      const counts = new Map<string, number>();
      if (hashes.length === 0) return counts;
      const logs = await read(
        publicClient.getContractEvents({
          address: marketplace,
          abi: noteMarketplaceAbi,
          eventName: "OrderFilled",
          args: { orderHash: hashes as Hex[] },
          fromBlock: BigInt(d.deployBlock),
        }),
      );
      for (const log of logs) {
        const hash = lower((log.args as { orderHash: Hex }).orderHash);
        counts.set(hash, (counts.get(hash) ?? 0) + 1);
      }
      return counts;
    },
  };
}
type ChainReader = ReturnType<typeof chainReader>;

/** The newest block's batch of reads and fills per chain client, across requests: a block changes nothing twice. */
const batches = new WeakMap<PublicClient, BlockBatch>();
function batchAt(publicClient: PublicClient, block: bigint): BlockBatch {
  let batch = batches.get(publicClient);
  if (!batch || batch.block !== block) {
    // An older block's answers are no use to a newer read; a read still on an older block keeps its own batch.
    if (batch && batch.block > block) return createBlockBatch(publicClient, block);
    batch = createBlockBatch(publicClient, block);
    batches.set(publicClient, batch);
  }
  return batch;
}

/** One simulator (and so one cache of answers per block) per chain client and deployment, across requests. */
const simulators = new WeakMap<PublicClient, Map<string, FillSimulator>>();
function simulatorFor(publicClient: PublicClient, d: Deployment): FillSimulator {
  const byDeployment = simulators.get(publicClient) ?? new Map<string, FillSimulator>();
  simulators.set(publicClient, byDeployment);
  const key = d.contracts.marketplace.toLowerCase();
  if (!byDeployment.has(key))
    byDeployment.set(
      key,
      createBatchedFillSimulator(publicClient, d, (block) => batchAt(publicClient, block)),
    );
  return byDeployment.get(key)!;
}

/**
 * The rule's verdict, checked by the chain when the rule says open: a fill the simulation refuses is lapsed, with the
 * contract's reason, so the book never shows an order that cannot fill now.
 */
async function confirmed(chain: ChainReader, row: OrderRow, verdict: OrderVerdict, note: NoteFacts | null): Promise<OrderVerdict> {
  if (verdict.status !== "open" || row.tokenId === null || !note || verdict.priceNow === null) return verdict;
  const refusal = await chain.refusal(row, row.tokenId, note.owner, verdict.priceNow);
  return refusal ? { ...verdict, status: "lapsed", reason: refusal } : verdict;
}

/**
 * Whether a note's terms now fall in a matching offer's ranges (bounds included) and it is no later than the offer
 * accepts, as acceptMatchingOffer checks.
 */
function matchesNote(row: OrderRow, note: NoteState, now: bigint): boolean {
  const m = messageOf(row) as Record<string, bigint>;
  const termLeft = note.maturity > now ? note.maturity - now : 0n;
  const inside = (v: bigint, min: bigint, max: bigint) => v >= min && v <= max;
  return (
    note.status === NOTE_STATUS.active &&
    BigInt(note.daysPastDue) <= row.maxDaysPastDue &&
    inside(note.rateBps, m.minRateBps, m.maxRateBps) &&
    inside(termLeft, m.minTermLeft, m.maxTermLeft) &&
    inside(note.outstanding, m.minOutstanding, m.maxOutstanding)
  );
}

const splitOf = (note: NoteFacts) => ({ principal: note.outstanding, interest: note.interest });

interface Judged {
  row: OrderRow;
  verdict: OrderVerdict;
}

/**
 * Judges stored orders against the chain now (orderStatusOf), stores any status that changed, and answers the
 * rows as they now stand. Final statuses are not judged again.
 */
async function judge(deps: OrdersDeps, chain: ChainReader, rows: OrderRow[]): Promise<Judged[]> {
  const now = await chain.now();
  const facts = await Promise.all(
    rows.map(async (row): Promise<OrderFacts | null> => {
      if (!LIVE.includes(row.status)) return null;
      const [counter, usage, note, funds] = await Promise.all([
        chain.counter(row.signer),
        chain.usage(`${row.signer}:${row.hash}`),
        row.tokenId === null ? Promise.resolve(null) : chain.note(row.tokenId),
        row.kind === "listing" ? Promise.resolve(null) : chain.funds(row.signer),
      ]);
      return { now, counter, fills: 0, used: usage.used, spent: usage.filled, note, funds };
    }),
  );
  // A fill leaves a single-use order used (par) or its note moved (fixed); a matching one has spent something.
  const maybeFilled = rows.filter((row, i) => {
    const f = facts[i];
    if (!f) return false;
    if (row.kind === "matchingOffer") return f.spent > 0n;
    return f.used || (f.note !== null && (f.note.owner !== row.signer || (row.parBps === 0 && f.note.changes !== row.changes)));
  });
  const fills = await chain.fills(maybeFilled.map((r) => r.hash));
  const verdicts = await Promise.all(
    rows.map((row, i) => {
      const f = facts[i];
      return f ? confirmed(chain, row, orderStatusOf(termsOf(row), { ...f, fills: fills.get(row.hash) ?? 0 }), f.note) : null;
    }),
  );
  const judged: Judged[] = [];
  for (const [i, row] of rows.entries()) {
    const f = facts[i];
    const verdict = verdicts[i];
    if (!f || !verdict) {
      judged.push({ row, verdict: { status: row.status, reason: row.statusReason, priceNow: null } });
      continue;
    }
    let current = row;
    if (verdict.status !== row.status || verdict.reason !== row.statusReason || f.spent !== row.filled) {
      await deps.repo.setStatus(row.hash, verdict.status, verdict.reason, f.spent);
      current = { ...row, status: verdict.status, statusReason: verdict.reason, filled: f.spent };
    }
    judged.push({ row: current, verdict });
  }
  return judged;
}

/** The open matching offers that `note` fits now, each with its price for it (which must fit its budget left). */
async function matchingFor(chain: ChainReader, tokenId: bigint, note: NoteState, offers: Judged[]): Promise<WireOrder[]> {
  const now = await chain.now();
  const fits = offers
    .filter(({ row, verdict }) => verdict.status === "open" && row.signer !== note.holder && matchesNote(row, note, now))
    .map(({ row }) => ({ row, price: parPrice(splitOf(note), BigInt(row.parBps)) }))
    .filter(({ row, price }) => price <= (row.budget ?? 0n) - row.filled);
  // The chain has the last word for this note: an offer whose acceptance it would refuse does not fit.
  const refusals = await Promise.all(fits.map(({ row, price }) => chain.refusal(row, tokenId, note.owner, price)));
  return fits.filter((_, i) => refusals[i] === null).map(({ row, price }) => toWireOrder(row, { priceNow: price, tokenId }));
}

const byPriceDesc = (a: WireOrder, b: WireOrder) => Number(BigInt(toMicro(b.priceNow)) - BigInt(toMicro(a.priceNow)));
function toMicro(usd: string | null): bigint {
  if (usd === null) return 0n;
  const [whole, fraction = ""] = usd.split(".");
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
}

// ------------------------------------------------------------------ typed data

const uintStrings = (message: Record<string, bigint | string>) => Object.fromEntries(Object.entries(message).map(([k, v]) => [k, v.toString()]));

/** POST /api/orders/typed-data: the order the caller asks for, filled in from the chain, ready for the wallet to sign. */
export async function typedData(deps: OrdersDeps, user: UserRow, input: OrderTypedDataRequest): Promise<{ typedData: OrderTypedData }> {
  const me = tradingWallet(user);
  const d = await deployment(deps);
  const chain = chainReader(deps, d);
  const [now, counter] = await Promise.all([chain.now(), chain.counter(me)]);
  const common = {
    maxDaysPastDue: BigInt(input.maxDaysPastDue ?? MAX_DAYS_PAST_DUE_LIMITS.default),
    expiry: now + BigInt(input.expiresInDays) * DAY,
    salt: BigInt(`0x${randomBytes(32).toString("hex")}`),
    counter,
  };
  const fixed = input.priceKind === "fixed";
  const price = fixed ? input.price! : 0n;
  const parBps = fixed ? 0n : BigInt(input.parBps!);
  let message: Record<string, bigint | string>;
  if (input.kind === "matchingOffer") {
    const r = input.ranges ?? {};
    message = {
      buyer: me,
      parBps,
      minRateBps: BigInt(r.minRateBps ?? 0),
      maxRateBps: r.maxRateBps === undefined ? maxUint256 : BigInt(r.maxRateBps),
      minTermLeft: BigInt(r.minTermLeft ?? DEFAULT_MIN_TERM_LEFT),
      maxTermLeft: r.maxTermLeft === undefined ? maxUint256 : BigInt(r.maxTermLeft),
      minOutstanding: r.minOutstanding ?? 0n,
      maxOutstanding: r.maxOutstanding ?? maxUint256,
      budget: input.budget!,
      ...common,
    };
    if (input.budget! < matchingMinPrice({ parBps, minOutstanding: r.minOutstanding ?? 0n })) throw badRequest(ORDER_ANSWERS.budgetTooSmall);
  } else {
    const tokenId = BigInt(input.tokenId!);
    const note = await chain.note(tokenId);
    if (note.status === NOTE_STATUS.none) throw new AppError(404, ORDER_ANSWERS.noteNotFound);
    if (note.status !== NOTE_STATUS.active) throw badRequest(ORDER_ANSWERS.noteInactive);
    if (input.kind === "listing") {
      if (note.owner === lower(d.contracts.vault)) throw badRequest(ORDER_ANSWERS.inVault);
      if (note.owner !== me) throw new AppError(403, ORDER_ANSWERS.notHolder);
      message = { seller: me, tokenId, price, parBps, changes: note.changes, ...common };
    } else {
      if (note.holder === me) throw badRequest(ORDER_ANSWERS.ownNote);
      // A par offer's cap defaults to twice its price today: the accrual makes a dirty price rise between payments,
      // so a cap at today's price would refuse the fill tomorrow; twice is still a ceiling a signer can read.
      const cap = fixed ? 0n : (input.cap ?? 2n * parPrice(splitOf(note), parBps));
      if (!fixed && cap === 0n) throw badRequest(ORDER_ANSWERS.capZero);
      message = { buyer: me, tokenId, price, parBps, cap, changes: note.changes, ...common };
    }
  }
  const primaryType = PRIMARY_TYPES[input.kind];
  return {
    typedData: {
      domain: orderDomain(deps.config.chainId, d.contracts.marketplace as Address),
      types: { [primaryType]: ORDER_TYPES[primaryType].map((f) => ({ ...f })) },
      primaryType,
      message: uintStrings(message),
    },
  };
}

// ------------------------------------------------------------------ submission

const signerOf = (input: OrderSubmission): Address => ("seller" in input.message ? input.message.seller : input.message.buyer);

/** The stored row of a submitted order; refuses what the table (and the wire) cannot hold faithfully. */
function rowOf(input: OrderSubmission, hash: string): Omit<OrderRow, "chainId" | "createdAt" | "updatedAt"> {
  const m = input.message as unknown as Record<string, bigint>;
  if (m.parBps > BigInt(PAR_BPS_LIMITS.max)) throw badRequest(ORDER_ANSWERS.parBps);
  const base = {
    hash,
    kind: input.kind,
    signer: signerOf(input),
    tokenId: null as bigint | null,
    price: 0n,
    parBps: Number(m.parBps),
    cap: null as bigint | null,
    changes: null as bigint | null,
    maxDaysPastDue: m.maxDaysPastDue,
    minRateBps: null as number | null,
    maxRateBps: null as number | null,
    minTermLeft: null as bigint | null,
    maxTermLeft: null as bigint | null,
    minOutstanding: null as bigint | null,
    maxOutstanding: null as bigint | null,
    budget: null as bigint | null,
    expiry: m.expiry,
    salt: m.salt,
    counter: m.counter,
    signature: lower(input.signature),
    status: "open" as OrderStatus,
    statusReason: null as string | null,
    filled: 0n,
    /** Set when stored: the chain's clock then. */
    chainTime: null as Date | null,
  };
  if (input.kind !== "matchingOffer") {
    if (m.parBps === 0n && m.price === 0n) throw badRequest(ORDER_ANSWERS.priceZero);
    if (input.kind === "offer" && m.parBps !== 0n && m.cap === 0n) throw badRequest(ORDER_ANSWERS.capZero);
    return { ...base, tokenId: m.tokenId, price: m.price, changes: m.changes, cap: input.kind === "offer" ? m.cap : null };
  }
  if (m.parBps === 0n) throw badRequest(ORDER_ANSWERS.parBps);
  // "No bound" is signed as the largest uint256 and stored as null; other bounds must fit their columns.
  const open = (v: bigint) => (v === maxUint256 ? null : v);
  const maxTerm = open(m.maxTermLeft);
  if (m.minRateBps > MAX_INT4 || (m.maxRateBps !== maxUint256 && m.maxRateBps > MAX_INT4)) throw badRequest(ORDER_ANSWERS.range);
  if (m.minTermLeft > BigInt(Number.MAX_SAFE_INTEGER) || (maxTerm !== null && maxTerm > BigInt(Number.MAX_SAFE_INTEGER))) throw badRequest(ORDER_ANSWERS.range);
  if (m.minRateBps > m.maxRateBps || m.minTermLeft > m.maxTermLeft || m.minOutstanding > m.maxOutstanding) throw badRequest(ORDER_ANSWERS.range);
  if (m.budget < matchingMinPrice({ parBps: m.parBps, minOutstanding: m.minOutstanding })) throw badRequest(ORDER_ANSWERS.budgetTooSmall);
  return {
    ...base,
    minRateBps: Number(m.minRateBps),
    maxRateBps: m.maxRateBps === maxUint256 ? null : Number(m.maxRateBps),
    minTermLeft: m.minTermLeft,
    maxTermLeft: maxTerm,
    minOutstanding: m.minOutstanding,
    maxOutstanding: open(m.maxOutstanding),
    budget: m.budget,
  };
}

/**
 * Whether `signature` is `signer`'s for `hash` as the marketplace judges it (NoteOrders._checkOrder): 65-byte low-s
 * ECDSA from the signer first; failing that, the signer's EIP-1271 answer when it is a contract, whatever the
 * signature's length. An account without code gets told why a compact or high-s signature is refused.
 */
async function verifySignature(deps: OrdersDeps, signer: Address, hash: Hex, signature: Hex): Promise<void> {
  const highS = size(signature) === 65 && BigInt(sliceHex(signature, 32, 64)) > HALF_N;
  if (size(signature) === 65 && !highS) {
    const recovered = await recoverAddress({ hash, signature }).catch(() => null);
    if (recovered && lower(recovered) === signer) return;
  }
  const code = await read(deps.publicClient.getCode({ address: signer }));
  if (code && code !== "0x") {
    let answer: Hex;
    try {
      answer = await deps.publicClient.readContract({ address: signer, abi: erc1271Abi, functionName: "isValidSignature", args: [hash, signature] });
    } catch (error) {
      if (error instanceof BaseError && /revert|decode|returned no data/i.test(error.message)) throw badRequest(ORDER_ANSWERS.badSignature);
      throw new AppError(503, ORDER_ANSWERS.chainDown);
    }
    if (lower(answer) === ERC1271_MAGIC) return;
    throw badRequest(ORDER_ANSWERS.badSignature);
  }
  if (size(signature) === 64) throw badRequest(ORDER_ANSWERS.compactSignature);
  if (highS) throw badRequest(ORDER_ANSWERS.highS);
  throw badRequest(ORDER_ANSWERS.badSignature);
}

/**
 * Refuses one more order past the signer's cap. A stored status can lag the chain (a cancel not indexed yet), so at
 * the cap the signer's orders are judged again before refusing: cancelling frees room at once.
 */
async function ensureRoom(deps: OrdersDeps, chain: ChainReader, signer: Address, now: bigint): Promise<void> {
  const cap = deps.maxOpenOrders;
  if ((await deps.repo.countLive(signer, LIVE, now)) < cap) return;
  await judge(deps, chain, await deps.repo.bySigner(signer));
  if ((await deps.repo.countLive(signer, LIVE, now)) >= cap) throw conflict(ORDER_ANSWERS.openCap(cap));
}

/** Refuses an offer whose buyer is a contract a fill could not send the note to (for a matching offer, any note). */
async function ensureReceiver(deps: OrdersDeps, d: Deployment, buyer: Address, note: { tokenId: bigint; holder: string } | null): Promise<void> {
  const question = { buyer, loanNote: d.contracts.loanNote as Address, marketplace: d.contracts.marketplace as Address };
  const where = note ? { tokenId: note.tokenId, holder: note.holder as Address } : {};
  if (!(await read(canReceiveNotes(deps.publicClient, { ...question, ...where })))) throw badRequest(ORDER_ANSWERS.cannotReceive);
}

/**
 * POST /api/orders: checks a signed order as the marketplace would at a fill (and what only the API can check:
 * the signer is the caller's verified wallet, with approved KYC), then stores it. An offer whose buyer lacks the
 * balance or allowance is stored as unfunded: the wallet signs first and approves after (docs/decisions.md).
 */
export async function submit(deps: OrdersDeps, user: UserRow, input: OrderSubmission): Promise<WireOrder> {
  const me = tradingWallet(user);
  const m = input.message as unknown as Record<string, bigint>;
  const signer = signerOf(input);
  if (signer !== me) throw badRequest(ORDER_ANSWERS.notYourWallet);
  const d = await deployment(deps);
  const primaryType = PRIMARY_TYPES[input.kind];
  const hash = lower(hashTypedData({ domain: orderDomain(deps.config.chainId, d.contracts.marketplace as Address), types: ORDER_TYPES, primaryType, message: input.message as never })) as Hex;
  const row = rowOf(input, hash);
  const signature = row.signature as Hex;
  const chain = chainReader(deps, d);
  await verifySignature(deps, signer, hash, signature);

  const now = await chain.now();
  if (isExpired(m.expiry, now)) throw badRequest(ORDER_ANSWERS.expired);
  if (m.expiry > now + BigInt(ORDER_EXPIRY_DAYS.max + 1) * DAY) throw badRequest(ORDER_ANSWERS.tooLong(ORDER_EXPIRY_DAYS.max));
  if (await deps.repo.byHash(hash)) throw conflict(ORDER_ANSWERS.exists);
  await ensureRoom(deps, chain, signer, now);
  const [counter, usage] = await Promise.all([chain.counter(signer), chain.usage(`${signer}:${hash}`)]);
  if (m.counter !== counter) throw badRequest(ORDER_ANSWERS.counter(counter));
  if (usage.used) throw badRequest(ORDER_ANSWERS.used);

  let note: NoteState | null = null;
  if (input.kind !== "matchingOffer") {
    note = await chain.note(m.tokenId);
    if (note.status === NOTE_STATUS.none) throw badRequest(ORDER_ANSWERS.noteNotFound);
    if (note.status !== NOTE_STATUS.active) throw badRequest(ORDER_ANSWERS.noteInactive);
    if (input.kind === "listing" && note.owner !== signer) {
      throw badRequest(note.owner === lower(d.contracts.vault) ? ORDER_ANSWERS.inVault : ORDER_ANSWERS.notHolder);
    }
    if (input.kind === "offer" && note.holder === signer) throw badRequest(ORDER_ANSWERS.ownNote);
    if (m.parBps === 0n && m.changes !== note.changes) throw badRequest(ORDER_ANSWERS.stale(note.changes));
  }
  if (input.kind !== "listing") await ensureReceiver(deps, d, signer, note && { tokenId: m.tokenId, holder: note.holder });
  const funds = input.kind === "listing" ? null : await chain.funds(signer);
  const fullRow = { ...row, chainId: deps.config.chainId, createdAt: new Date(), updatedAt: new Date() };
  const verdict = orderStatusOf(termsOf(fullRow), { now, counter, fills: 0, used: false, spent: usage.filled, note, funds });
  // An order the rule calls open is filled in a simulation first: one the chain would refuse is not taken, with why.
  const checked = await confirmed(chain, fullRow, verdict, note);
  if (checked.status !== verdict.status) throw badRequest(ORDER_ANSWERS.wouldNotFill(checked.reason ?? ""));
  const chainTime = new Date(Number(now) * 1000);
  const stored = await deps.repo.insert({ ...row, status: verdict.status, statusReason: verdict.reason, filled: usage.filled, chainTime });
  if (!stored) throw conflict(ORDER_ANSWERS.exists);
  // The order is stored whatever happens to its announcement: a failed push or notice is logged, not the caller's error.
  await deps.announcer?.stored(stored, now).catch((error) => deps.logger?.warn({ err: error, hash: stored.hash }, "could not announce a stored order"));
  return toWireOrder(stored, { priceNow: verdict.priceNow });
}

// ------------------------------------------------------------------ reads

/** GET /api/orders/note/{tokenId}: the open orders a fill could use now; matching offers this note fits. */
export async function book(deps: OrdersDeps, tokenId: bigint): Promise<OrderBook> {
  const d = await deployment(deps);
  const chain = chainReader(deps, d);
  const [onNote, matching, note] = await Promise.all([deps.repo.onNote(tokenId, LIVE), deps.repo.matching(LIVE), chain.note(tokenId)]);
  const [judged, judgedMatching] = await Promise.all([judge(deps, chain, onNote), judge(deps, chain, matching)]);
  const open = judged.filter((j) => j.verdict.status === "open").map((j) => toWireOrder(j.row, { priceNow: j.verdict.priceNow }));
  const late = judged.filter((j) => j.verdict.status === "late").map((j) => toWireOrder(j.row, { priceNow: j.verdict.priceNow }));
  const listings = open.filter((o) => o.kind === "listing").sort((a, b) => -byPriceDesc(a, b));
  const offers = open.filter((o) => o.kind === "offer").sort(byPriceDesc);
  const matchingOffers = note.status === NOTE_STATUS.active ? (await matchingFor(chain, tokenId, note, judgedMatching)).sort(byPriceDesc) : [];
  const best = [...offers, ...matchingOffers].sort(byPriceDesc)[0] ?? null;
  return { listings, offers, matchingOffers, bestOffer: best, late };
}

/** GET /api/orders/matching: every open matching offer. */
export async function matching(deps: OrdersDeps): Promise<{ matchingOffers: WireOrder[] }> {
  const d = await deployment(deps);
  const chain = chainReader(deps, d);
  const judged = await judge(deps, chain, await deps.repo.matching(LIVE));
  return { matchingOffers: judged.filter((j) => j.verdict.status === "open").map((j) => toWireOrder(j.row, { priceNow: null })) };
}

/**
 * GET /api/orders/mine: every order the caller's wallet signed, as it stands now; and the open offers on the notes
 * that wallet holds (directly or in the vault), with the matching offers those notes fit. Nobody else's orders.
 */
export async function mine(deps: OrdersDeps, user: UserRow, heldTokenIds: (wallet: string) => Promise<bigint[]>) {
  const me = user.walletAddress ? lower(user.walletAddress) : null;
  if (!me) return { made: [], received: [] };
  const d = await deployment(deps);
  const chain = chainReader(deps, d);
  const held = await heldTokenIds(me);
  const [made, received] = await Promise.all([deps.repo.bySigner(me).then((rows) => judge(deps, chain, rows)), receivedWith(deps, chain, me, held)]);
  return { made: made.map((j) => toWireOrder(j.row, { priceNow: j.verdict.priceNow })), received };
}

/**
 * The open offers `holder` could accept now on the notes `held`: single-note offers and the matching offers each
 * note fits, with that note's price, best first. Offers the holder signed are left out.
 */
export async function received(deps: OrdersDeps, holder: string, held: bigint[]): Promise<WireOrder[]> {
  const d = await deployment(deps);
  return receivedWith(deps, chainReader(deps, d), lower(holder), held);
}

async function receivedWith(deps: OrdersDeps, chain: ChainReader, me: string, held: bigint[]): Promise<WireOrder[]> {
  const [offers, matchingRows] = await Promise.all([deps.repo.onNotes(held, "offer", LIVE), deps.repo.matching(LIVE)]);
  const [judgedOffers, judgedMatching] = await Promise.all([judge(deps, chain, offers), judge(deps, chain, matchingRows)]);
  const found = judgedOffers.filter((j) => j.verdict.status === "open" && j.row.signer !== me).map((j) => toWireOrder(j.row, { priceNow: j.verdict.priceNow }));
  for (const tokenId of held) {
    const note = await chain.note(tokenId);
    if (note.status !== NOTE_STATUS.active) continue;
    found.push(
      ...(await matchingFor(
        chain,
        tokenId,
        note,
        judgedMatching.filter((j) => j.row.signer !== me),
      )),
    );
  }
  return found.sort(byPriceDesc);
}

/**
 * Judges again the orders that could change when the chain did: those on `tokenIds`, those signed by `signers`,
 * and, with `matching`, every matching offer. Answers the orders whose status changed, as they stand now, for the
 * caller (the indexer's side) to push. Used after an OrderFilled, OrderCancelled, CounterIncremented, a note's
 * transfer, repayment or default, or a buyer's allowance change.
 */
export async function refresh(deps: OrdersDeps, scope: { tokenIds?: bigint[]; signers?: string[]; matching?: boolean }) {
  const d = await deployment(deps);
  const chain = chainReader(deps, d);
  const rows = new Map<string, OrderRow>();
  const add = (list: OrderRow[]) => list.forEach((r) => LIVE.includes(r.status) && rows.set(r.hash, r));
  for (const tokenId of scope.tokenIds ?? []) add(await deps.repo.onNote(tokenId, LIVE));
  for (const signer of scope.signers ?? []) add(await deps.repo.bySigner(lower(signer)));
  if (scope.matching) add(await deps.repo.matching(LIVE));
  const before = new Map([...rows.values()].map((r) => [r.hash, r.status]));
  const judged = await judge(deps, chain, [...rows.values()]);
  return judged.filter((j) => j.row.status !== before.get(j.row.hash)).map((j) => ({ previousStatus: before.get(j.row.hash)!, order: toWireOrder(j.row, { priceNow: j.verdict.priceNow }) }));
}

// ------------------------------------------------------------------ the spec's list and unlist

/** PUT /nfts/{id}/list: the listing to sign, at the fixed `listingPrice` or, with `parBps`, at that share of par. */
export async function listingTypedData(deps: OrdersDeps, user: UserRow, tokenId: bigint, input: { listingPrice: bigint; parBps?: number }) {
  const request: OrderTypedDataRequest =
    input.parBps === undefined
      ? { kind: "listing", tokenId: tokenId.toString(), priceKind: "fixed", price: input.listingPrice, maxDaysPastDue: 0, expiresInDays: ORDER_EXPIRY_DAYS.default }
      : { kind: "listing", tokenId: tokenId.toString(), priceKind: "par", parBps: input.parBps, maxDaysPastDue: 0, expiresInDays: ORDER_EXPIRY_DAYS.default };
  return typedData(deps, user, request);
}

/**
 * PUT /nfts/{id}/unlist: a signed order can only be killed on-chain, so this answers the cancelOrders call for the
 * caller's listings of the note that could still fill (open, or lapsed and able to revive); null when there are none.
 */
export async function unlistCall(deps: OrdersDeps, user: UserRow, tokenId: bigint) {
  const me = wallet(user);
  const rows = (await deps.repo.onNote(tokenId, LIVE)).filter((r) => r.kind === "listing" && r.signer === me);
  if (rows.length === 0) return null;
  const d = await deployment(deps);
  const hashes = rows.map((r) => r.hash as Hex);
  return {
    orderHashes: hashes,
    call: { to: d.contracts.marketplace as Address, data: encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "cancelOrders", args: [hashes] }), value: "0" as const, chainId: d.chainId },
  };
}

export function createOrdersService(deps: OrdersDeps) {
  return bindDeps(deps, { typedData, submit, book, matching, mine, received, refresh, listingTypedData, unlistCall });
}
export type OrdersService = ReturnType<typeof createOrdersService>;
