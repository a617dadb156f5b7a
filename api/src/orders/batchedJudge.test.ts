import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createPublicClient, encodeFunctionData, http, maxUint256, type Address, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { OrderRow } from "#db/schema/orders";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import type { SignedListing, SignedMatchingOffer, SignedOffer } from "#domain/orders";
import { startTestChain, type Signed, type TestChain } from "#testing/chain";
import { startRpcCounter, type RpcCounter } from "#testing/rpcCounter";
import { createBlockBatch } from "./blockBatch";
import { createBatchedFillSimulator, createFillSimulator, type FillRefusal } from "./simulateFill";

/**
 * The book's fills simulated all at once (one eth_call to OrderJudge, each fill from its own sender and undone before
 * the next) must say exactly what one eth_call per fill says, on books of every kind of order, good and bad.
 */

const USD = 1_000_000n;
let chain: TestChain;
let counter: RpcCounter;

before(async () => {
  chain = await startTestChain();
  counter = await startRpcCounter(chain.rpcUrl);
});

after(async () => {
  await counter?.close();
  await chain?.stop();
});

/** A seeded generator (mulberry32), so a failing book can be made again from the seed printed with it. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { int: (n: number) => Math.floor(next() * n), pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)], chance: (p: number) => next() < p };
}

const send = (from: Address, to: Address, data: Hex) => chain.rpc("eth_sendTransaction", [{ from, to, data }]);

function rowOf(kind: OrderRow["kind"], signed: Signed<SignedListing | SignedOffer | SignedMatchingOffer>): OrderRow {
  const o = signed.order as Partial<SignedListing & SignedOffer & SignedMatchingOffer>;
  const capped = (value: bigint | undefined) => (value === undefined || value === maxUint256 ? null : value);
  return {
    hash: signed.hash.toLowerCase(),
    chainId: chain.deployment.chainId,
    kind,
    signer: (o.seller ?? o.buyer)!.toLowerCase(),
    tokenId: o.tokenId ?? null,
    price: o.price ?? 0n,
    parBps: Number(o.parBps ?? 0n),
    cap: o.cap ?? null,
    changes: o.changes ?? null,
    maxDaysPastDue: o.maxDaysPastDue ?? 0n,
    minRateBps: o.minRateBps === undefined ? null : Number(o.minRateBps),
    maxRateBps: capped(o.maxRateBps) === null ? null : Number(o.maxRateBps),
    minTermLeft: o.minTermLeft ?? null,
    maxTermLeft: capped(o.maxTermLeft),
    minOutstanding: o.minOutstanding ?? null,
    maxOutstanding: capped(o.maxOutstanding),
    budget: o.budget ?? null,
    expiry: o.expiry!,
    salt: o.salt!,
    counter: o.counter!,
    signature: signed.signature,
    status: "open",
    statusReason: null,
    filled: 0n,
    createdAt: new Date(),
    chainTime: null,
    updatedAt: new Date(),
  } as OrderRow;
}

interface Case {
  row: OrderRow;
  fill: { tokenId: bigint; owner: Address; price: bigint };
}

/** Notes held by several people (one in the vault), sellers approved or not, buyers funded or not, then random orders. */
async function randomBook(seed: number, size: number, firstToken: bigint): Promise<Case[]> {
  const r = random(seed);
  const { treasury, investor, other, borrower } = chain.actors;
  const { loanNote, marketplace, stablecoin } = chain.deployment.contracts as Record<string, Address>;
  const deployer = privateKeyToAccount(DEV_ACCOUNTS.deployer).address;
  const tokens: bigint[] = [];
  for (let i = 0n; i < 5n; i++) {
    const tokenId = firstToken + i;
    await chain.originate(tokenId, BigInt(1_000 + r.int(9_000)) * USD);
    tokens.push(tokenId);
  }
  await chain.transfer(tokens[1], treasury, investor);
  await chain.transfer(tokens[2], treasury, other);
  await chain.deposit(tokens[3], treasury);
  await chain.repay(tokens[0], 50n * USD);
  // `other` lets the marketplace move its notes, `investor` never did: accepting an offer approves it first.
  await send(other, loanNote, encodeFunctionData({ abi: loanNoteAbi, functionName: "setApprovalForAll", args: [marketplace, true] }));
  for (const who of [investor, other, treasury]) {
    await send(deployer, stablecoin, encodeFunctionData({ abi: testDollarAbi, functionName: "mint", args: [who, BigInt(2_000 + r.int(6_000)) * USD] }));
    await send(who, stablecoin, encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [marketplace, BigInt(2_000 + r.int(6_000)) * USD] }));
  }
  const ownerOf = async (tokenId: bigint) => (await chain.publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "ownerOf", args: [tokenId] })) as Address;
  const now = (await chain.publicClient.getBlock()).timestamp;
  const people = [treasury, investor, other, borrower] as const;
  const cases: Case[] = [];
  for (let i = 0; i < size; i++) {
    const kind = r.pick(["listing", "offer", "matchingOffer"] as const);
    const tokenId = r.pick(tokens);
    const price = BigInt(1 + r.int(6_000)) * USD;
    const par = r.chance(0.4) ? BigInt(5_000 + r.int(6_000)) : 0n;
    const common = {
      price: par ? 0n : price,
      parBps: par,
      expiry: r.chance(0.1) ? now - 10n : now + 86_400n,
      ...(r.chance(0.1) ? { counter: 7n } : {}),
      ...(r.chance(0.1) ? { changes: 99n } : {}),
      maxDaysPastDue: BigInt(r.int(3)),
    };
    const signer = r.pick(people);
    let signed: Signed<SignedListing | SignedOffer | SignedMatchingOffer>;
    if (kind === "listing") signed = await chain.signListing(tokenId, common, r.chance(0.7) ? await ownerOfOrVault(ownerOf, tokenId) : signer);
    else if (kind === "offer") signed = await chain.signOffer(tokenId, { ...common, cap: par ? BigInt(r.int(20_000)) * USD : maxUint256 }, signer);
    else signed = await chain.signMatchingOffer({ parBps: par || 10_000n, budget: BigInt(r.int(30_000)) * USD, expiry: common.expiry, maxDaysPastDue: common.maxDaysPastDue }, signer);
    // A fill at the signed price, or at another one (a par order's dirty price, a changed price): both are judged.
    const fillPrice = r.chance(0.6) ? price : BigInt(1 + r.int(6_000)) * USD;
    cases.push({ row: rowOf(kind, signed), fill: { tokenId, owner: await ownerOf(tokenId), price: fillPrice } });
  }
  return cases;
}

/** A listing by the note's owner, or by the treasury for the vaulted note (the vault signs nothing). */
async function ownerOfOrVault(ownerOf: (tokenId: bigint) => Promise<Address>, tokenId: bigint): Promise<Address> {
  const owner = await ownerOf(tokenId);
  return owner.toLowerCase() === chain.deployment.contracts.vault.toLowerCase() ? chain.actors.treasury : owner;
}

async function judgeAll(simulate: (c: Case, block: bigint) => Promise<FillRefusal>, cases: Case[], block: bigint): Promise<FillRefusal[]> {
  return Promise.all(cases.map((c) => simulate(c, block)));
}

test("the batched judge says what the one-by-one judge says, order by order, on random books", async () => {
  const seeds = [11, 29, 47];
  for (const [i, seed] of seeds.entries()) {
    const cases = await randomBook(seed, 40, BigInt(1_000 + i * 10));
    const block = await chain.publicClient.getBlockNumber();
    const alone = createFillSimulator(chain.publicClient, chain.deployment);
    const counted = createPublicClient({ transport: http(counter.url), cacheTime: 0 }) as PublicClient;
    const batched = createBatchedFillSimulator(counted, chain.deployment, (at) => batchOf(counted, at));
    const one = await judgeAll((c, at) => alone.simulate(c.row, { ...c.fill, block: at }), cases, block);
    const before = counter.calls().eth_call ?? 0;
    const all = await judgeAll((c, at) => batched.simulate(c.row, { ...c.fill, block: at }), cases, block);
    const calls = (counter.calls().eth_call ?? 0) - before;

    assert.deepEqual(all, one, `seed ${seed}: the batched judge differs`);
    const reasons = new Set(one.filter((answer) => answer !== null));
    const kinds = new Set(cases.filter((_, j) => one[j] === null).map((c) => c.row.kind));
    assert.deepEqual([...kinds].sort(), ["listing", "matchingOffer", "offer"], `seed ${seed}: fills of every kind would go through`);
    const unapproved = cases.filter((c, j) => one[j] === null && c.row.kind !== "listing" && c.fill.owner.toLowerCase() === chain.actors.investor.toLowerCase());
    assert.ok(unapproved.length > 0, `seed ${seed}: an owner who never approved the marketplace would accept an offer`);
    assert.ok(reasons.size >= 3, `seed ${seed}: fills fail for several reasons (${[...reasons].join(" / ")})`);
    // The layout probe, the senders' code sizes, the fills (one call; the vault's own offers each alone).
    const vaulted = cases.filter((c) => c.row.kind !== "listing" && c.fill.owner.toLowerCase() === chain.deployment.contracts.vault.toLowerCase()).length;
    assert.ok(calls <= 3 + vaulted, `seed ${seed}: ${calls} eth_calls for ${cases.length} fills (${vaulted} from the vault)`);
  }
});

const batches = new Map<bigint, ReturnType<typeof createBlockBatch>>();
function batchOf(client: PublicClient, block: bigint) {
  if (!batches.has(block)) batches.set(block, createBlockBatch(client, block));
  return batches.get(block)!;
}
