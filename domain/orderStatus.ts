import { PAR_BPS, parPrice, type OrderKind, type OrderStatus } from "./orders";
import type { PayoffSplit } from "./servicing";

/**
 * The one rule for where a signed order stands: the API stores its verdict, the indexer (helper of the
 * realtime pushes) calls it again when the chain changes something an order depends on. It mirrors
 * contracts/NoteOrders.sol's checks, in the order a fill would meet them, so "open" means a fill would go through
 * now (barring a race), and every other status says which check would refuse it.
 */

/** LoanNote.Status as noteStateOf answers it. */
export const NOTE_STATUS = { none: 0, active: 1, repaid: 2, defaulted: 3 } as const;

/** What the rule reads of the order itself (the stored row or the signed message). */
export interface OrderTerms {
  kind: OrderKind;
  signer: string;
  tokenId: bigint | null;
  price: bigint;
  parBps: bigint;
  cap: bigint | null;
  changes: bigint | null;
  /** The most days past due the signer accepts; 0 (current notes only) for orders stored before it existed. */
  maxDaysPastDue: bigint;
  minOutstanding: bigint | null;
  budget: bigint | null;
  expiry: bigint;
  counter: bigint;
}

/** The note an order is on (its noteStateOf), lowercase addresses. */
export interface NoteFacts {
  owner: string;
  /** Who the note belongs to: its owner, or its depositor while the vault holds it (NoteVault.depositorOf). */
  holder: string;
  status: number;
  changes: bigint;
  /** What settles the note now, split as a par price reads it (zero unless active). */
  outstanding: bigint;
  interest: bigint;
  /** Days the oldest unpaid installment is past due (0 while current). */
  daysPastDue: number;
}

/** What the chain says, read directly or from the mirror (chain_order_*). */
export interface OrderFacts {
  /** The chain's latest block time, seconds. */
  now: bigint;
  /** The signer's counter now (counterOf). */
  counter: bigint;
  /** OrderFilled logs for this order's hash (a matching offer may have several). */
  fills: number;
  /** orderStatus(signer, hash).used: cancelled, or a par order filled. */
  used: boolean;
  /** orderStatus(signer, hash).filled: what a matching offer spent. */
  spent: bigint;
  /** The order's note; null for a matching offer or an unknown note. */
  note: NoteFacts | null;
  /** An offer's buyer's stablecoin balance and allowance to the marketplace; null for a listing. */
  funds: { balance: bigint; allowance: bigint } | null;
}

export interface OrderVerdict {
  status: OrderStatus;
  reason: string | null;
  /** What a fill pays now (micro-dollars); null when it has no one price (a matching offer, a lost note). */
  priceNow: bigint | null;
}

export const ORDER_STATUS_REASONS = {
  filled: "Filled on-chain",
  budgetSpent: "The offer's budget is spent",
  cancelled: "Cancelled by its signer",
  counter: "Cancelled: its signer cancelled all their orders",
  expired: "Expired",
  noteMissing: "The note does not exist",
  noteMoved: "The note is no longer held by the seller",
  notActive: "The note is no longer active (repaid or defaulted)",
  late: "The note is past due, and the order fills only on a note no later than its signer accepted",
  stateChanged: "The note changed since the fixed price was signed (a repayment, a transfer or a default)",
  ownNote: "The buyer holds the note",
  balance: "The buyer's balance is below the price",
  allowance: "The buyer has not approved the marketplace for the price",
} as const;

/** The order's price for a note that `split` settles now: fixed, or the dirty par price, an offer's capped. */
export function orderPriceFor(order: Pick<OrderTerms, "price" | "parBps" | "cap">, split: PayoffSplit): bigint {
  if (order.parBps === 0n) return order.price;
  const par = parPrice(split, order.parBps);
  return order.cap !== null && order.cap < par ? order.cap : par;
}

/** The least a matching offer can pay for any note in its ranges (at least one unit). */
export function matchingMinPrice(order: Pick<OrderTerms, "parBps" | "minOutstanding">): bigint {
  const least = ((order.minOutstanding ?? 0n) * order.parBps) / PAR_BPS;
  return least > 0n ? least : 1n;
}

/**
 * Whether an order can no longer fill when the chain's latest block has time `now`: a fill runs in a later block,
 * so at its expiry's own second it would already be refused (the contract takes `block.timestamp <= expiry`).
 */
export function isExpired(expiry: bigint, now: bigint): boolean {
  return expiry <= now;
}

export function orderStatusOf(order: OrderTerms, facts: OrderFacts): OrderVerdict {
  const r = ORDER_STATUS_REASONS;
  const priceNow =
    order.kind === "matchingOffer" ? null : facts.note && facts.note.status !== NOTE_STATUS.none ? orderPriceFor(order, { principal: facts.note.outstanding, interest: facts.note.interest }) : null;
  const verdict = (status: OrderStatus, reason: string | null): OrderVerdict => ({ status, reason, priceNow });

  if (order.kind === "matchingOffer") {
    const remaining = (order.budget ?? 0n) - facts.spent;
    if (!facts.used && facts.fills > 0 && remaining < matchingMinPrice(order)) return verdict("filled", r.budgetSpent);
  } else if (facts.fills > 0) {
    return verdict("filled", r.filled);
  }
  if (facts.used) return verdict("cancelled", r.cancelled);
  if (facts.counter !== order.counter) return verdict("cancelled", r.counter);
  if (isExpired(order.expiry, facts.now)) return verdict("expired", r.expired);

  if (order.kind !== "matchingOffer") {
    const note = facts.note;
    if (!note || note.status === NOTE_STATUS.none) return verdict("lapsed", r.noteMissing);
    if (order.kind === "listing" && note.owner !== order.signer.toLowerCase()) return verdict("lapsed", r.noteMoved);
    if (order.parBps === 0n) {
      if (note.changes !== order.changes) return verdict("lapsed", r.stateChanged);
    } else if (note.status !== NOTE_STATUS.active) {
      return verdict("lapsed", r.notActive);
    }
    // A note in the vault can be sold only once its depositor takes it out, and then the offer is to themselves.
    if (order.kind === "offer" && note.holder === order.signer.toLowerCase()) return verdict("lapsed", r.ownNote);
    if (BigInt(note.daysPastDue) > order.maxDaysPastDue) return verdict("late", r.late);
  }

  if (facts.funds) {
    const need = order.kind === "matchingOffer" ? matchingMinPrice(order) : (priceNow ?? 0n);
    if (facts.funds.balance < need) return verdict("unfunded", r.balance);
    if (facts.funds.allowance < need) return verdict("unfunded", r.allowance);
  }
  return verdict("open", null);
}
