import { encodeAbiParameters, encodeFunctionData, keccak256, numberToHex, zeroAddress, type Address, type Hex, type PublicClient, type StateOverride } from "viem";
import type { OrderRow } from "#db/schema/orders";
import { noteMarketplaceAbi, testDollarAbi } from "#domain/abis";
import { decodeContractError, decodeRevertData } from "#domain/contractErrors";
import type { Deployment } from "#domain/deployment";
import type { BlockBatch, FillCall } from "./blockBatch";
import { messageOf } from "./wire";

/**
 * Whether an order's fill would go through now, asked of the chain itself: the fill is simulated (`eth_call`) in the
 * latest block, from the one who would send it, with only what that person would do first taken as done. The order
 * rule (domain/orderStatus.ts) says why an order cannot fill in the cases it knows; the simulation catches the rest
 * (a seller that never approved the marketplace, a buyer's wallet or token that refuses, a check the rule lacks), so
 * the book never shows an offer it cannot fill.
 *
 * - An offer (on one note, or matching one): accepted by the note's owner, who approves the marketplace for the note
 *   at acceptance: that approval is assumed (ERC-721 `_operatorApprovals`, slot 5 of LoanNote's storage).
 * - A listing: filled by a buyer holding exactly its price and allowing the marketplace that much: a stand-in address
 *   whose stablecoin balance and allowance are assumed (OpenZeppelin ERC-20 `_balances` slot 0, `_allowances` slot 1).
 *   The stablecoin's layout is probed once (a balance read under the same override); a token laid out otherwise is
 *   judged by the rule alone, never refused for it.
 */

/** Where OpenZeppelin 5 keeps the mappings the overrides set (declaration order; nothing precedes them). */
const ERC721_OPERATOR_APPROVALS_SLOT = 5n;
const ERC20_BALANCES_SLOT = 0n;
const ERC20_ALLOWANCES_SLOT = 1n;
/** The stand-in buyer of a simulated listing fill: an address nobody holds a key to, with no code. */
export const SIMULATED_BUYER: Address = "0x00000000000000000000000000000000000b0b0b";
const TRUE_WORD = numberToHex(1n, { size: 32 });

const mappingSlot = (key: Address, slot: bigint): Hex => keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [key, slot]));
const nestedSlot = (outer: Address, inner: Address, slot: bigint): Hex => keccak256(encodeAbiParameters([{ type: "address" }, { type: "bytes32" }], [inner, mappingSlot(outer, slot)]));

/** `owner` has approved `operator` for all its notes. */
export function operatorApproval(loanNote: Address, owner: Address, operator: Address): StateOverride[number] {
  return { address: loanNote, stateDiff: [{ slot: nestedSlot(owner, operator, ERC721_OPERATOR_APPROVALS_SLOT), value: TRUE_WORD }] };
}

/** `holder` holds `amount` of the stablecoin and allows `spender` as much. */
export function fundedBuyer(stablecoin: Address, holder: Address, spender: Address, amount: bigint): StateOverride[number] {
  const value = numberToHex(amount, { size: 32 });
  return {
    address: stablecoin,
    stateDiff: [
      { slot: mappingSlot(holder, ERC20_BALANCES_SLOT), value },
      { slot: nestedSlot(holder, spender, ERC20_ALLOWANCES_SLOT), value },
    ],
  };
}

/** What a simulation answers: null when the fill would go through, else the contract's reason in words. */
export type FillRefusal = string | null;

export interface FillSimulator {
  /** `order` filled in block `block` on note `tokenId` (a matching offer's note) owned by `owner`, at `price`. */
  simulate(order: OrderRow, fill: { tokenId: bigint; owner: Address; price: bigint; block: bigint }): Promise<FillRefusal>;
}

/** The fill of `order` on note `tokenId` (owned by `owner`) at `price`: its sender's call, when `buyer` fills a listing. */
function fillOf(order: OrderRow, tokenId: bigint, owner: Address, price: bigint, buyer: Address): { account: Address; data: Hex } {
  const message = messageOf(order) as never;
  const signature = order.signature as Hex;
  if (order.kind === "listing") {
    return { account: buyer, data: encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "fillListing", args: [message, signature, price] }) };
  }
  const data =
    order.kind === "offer"
      ? encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "acceptOffer", args: [message, signature, 0n] })
      : encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "acceptMatchingOffer", args: [message, signature, tokenId, 0n] });
  return { account: owner, data };
}

/** Whether the stablecoin keeps balances where OpenZeppelin's ERC-20 does: a balance read under the override. */
function probeLayout(publicClient: PublicClient, d: Deployment): Promise<boolean> {
  const stablecoin = d.contracts.stablecoin as Address;
  return publicClient
    .call({
      to: stablecoin,
      data: encodeFunctionData({ abi: testDollarAbi, functionName: "balanceOf", args: [SIMULATED_BUYER] }),
      stateOverride: [fundedBuyer(stablecoin, SIMULATED_BUYER, d.contracts.marketplace as Address, 1234567n)],
    })
    .then(({ data }) => data !== undefined && BigInt(data) === 1234567n)
    .catch(() => false);
}

/** Answers kept for the newest block asked about only: the book is judged on every read, and a block changes nothing twice. */
function perBlock(run: (order: OrderRow, tokenId: bigint, owner: Address, price: bigint, at: bigint) => Promise<FillRefusal>): FillSimulator {
  let block: bigint | null = null;
  let answers = new Map<string, Promise<FillRefusal>>();
  return {
    async simulate(order, { tokenId, owner, price, block: at }) {
      if (at !== block) {
        block = at;
        answers = new Map();
      }
      const key = `${order.hash}:${tokenId}:${owner.toLowerCase()}:${price}`;
      if (!answers.has(key)) answers.set(key, run(order, tokenId, owner, price, at));
      return answers.get(key)!;
    },
  };
}

/** One `eth_call` per order, note and block: the fill's own sender calls the marketplace under the overrides above. */
export function createFillSimulator(publicClient: PublicClient, deployment: Deployment): FillSimulator {
  const marketplace = deployment.contracts.marketplace as Address;
  const loanNote = deployment.contracts.loanNote as Address;
  const stablecoin = deployment.contracts.stablecoin as Address;
  let layoutProbe: Promise<boolean> | null = null;

  return perBlock(async (order, tokenId, owner, price, at) => {
    if (order.kind === "listing" && !(await (layoutProbe ??= probeLayout(publicClient, deployment)))) return null;
    const { account, data } = fillOf(order, tokenId, owner, price, SIMULATED_BUYER);
    const stateOverride: StateOverride = order.kind === "listing" ? [fundedBuyer(stablecoin, SIMULATED_BUYER, marketplace, price)] : [operatorApproval(loanNote, owner, marketplace)];
    try {
      await publicClient.call({ account, to: marketplace, data, stateOverride, blockNumber: at });
      return null;
    } catch (error) {
      const reverted = decodeContractError(error);
      // A node that did not answer says nothing about the order: judged by the rule alone.
      if (!reverted) throw error;
      return reverted.sentence;
    }
  });
}

/**
 * The same judgement, every fill of a block in one `eth_call` (api/src/orders/blockBatch.ts, contracts/OrderJudge.sol):
 * each fill runs from its own sender and is undone before the next. The sender's first step is the same: an offer's
 * note owner approves the marketplace (by calling it, where the single call overrides the storage), a listing's buyer
 * holds and allows exactly the price (a stand-in of its own per fill, so each one's funds are its own). An owner with
 * code of its own (a contract wallet, the vault) is simulated alone as above: OrderJudge's code would stand in for its.
 */
export function createBatchedFillSimulator(publicClient: PublicClient, deployment: Deployment, batchAt: (block: bigint) => BlockBatch): FillSimulator {
  const marketplace = deployment.contracts.marketplace as Address;
  const loanNote = deployment.contracts.loanNote as Address;
  const stablecoin = deployment.contracts.stablecoin as Address;
  const alone = createFillSimulator(publicClient, deployment);
  let layoutProbe: Promise<boolean> | null = null;
  let standIns = 0;

  return perBlock(async (order, tokenId, owner, price, at) => {
    const batch = batchAt(at);
    const listing = order.kind === "listing";
    const sender = listing ? standIn(standIns++) : owner;
    // Every fill of a turn waits for the same two answers, so they all reach the batch in one turn: one call.
    const [knownLayout, code] = await Promise.all([(layoutProbe ??= probeLayout(publicClient, deployment)), batch.codeSize(sender)]);
    if (listing && !knownLayout) return null;
    if (code > 0n) return alone.simulate(order, { tokenId, owner, price, block: at });
    const { data } = fillOf(order, tokenId, owner, price, sender);
    const fill: FillCall = listing
      ? { sender, target: marketplace, data, approveOn: zeroAddress, operator: zeroAddress, stateOverride: [fundedBuyer(stablecoin, sender, marketplace, price)] }
      : { sender, target: marketplace, data, approveOn: loanNote, operator: marketplace, stateOverride: [] };
    const result = await batch.simulate(fill);
    return result.success ? null : decodeRevertData(result.returnData).sentence;
  });
}

/** The n-th stand-in buyer: like SIMULATED_BUYER, an address nobody holds a key to, with no code. */
function standIn(n: number): Address {
  return `0x000000000000000000000000000b0b0b${(n % 2 ** 32).toString(16).padStart(8, "0")}` as Address;
}
