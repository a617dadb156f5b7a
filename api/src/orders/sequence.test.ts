import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { encodeFunctionData, maxUint256, type Address, type Hex } from "viem";
import { loanNoteAbi, noteMarketplaceAbi, testDollarAbi } from "#domain/abis";
import { formatUsdAmount } from "#domain/money";
import { orders as ordersTable } from "#db/schema/orders";
import { fund, makeUser, parPriceNow, sendAs, startLoanStack, type LoanStack, type TestUser } from "#testing/loanStack";
import { messageOf } from "./wire";

/**
 * The book against the chain (the signed orders' API and indexer test): a seeded random sequence of signing, repaying,
 * filling, cancelling and letting time pass; after every step each note's book holds exactly the stored orders
 * whose fill the chain would take now (simulated as the party who would send it).
 */
describe("the order book equals what the chain allows after every step of a random sequence", () => {
  let stack: LoanStack;
  let admin: TestUser, borrower: TestUser;
  let traders: TestUser[];
  const notes: bigint[] = [];
  const USD = 1_000_000n;
  const SEED = 19;
  const STEPS = 24;
  const call = (method: string, path: string, user?: TestUser, body?: unknown) => stack.api.call(method, path, { token: user?.token, body });
  const send = (user: TestUser, c: { to: string; data: string }) => sendAs(stack, user.wallet!, c);
  const marketplace = () => stack.deployment.contracts.marketplace as Address;
  const loanNote = () => stack.deployment.contracts.loanNote as Address;

  let state = SEED;
  /** mulberry32: the same sequence on every run. */
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];

  async function requestAndApprove(amount: string, interestRate: number, termMonths: number): Promise<bigint> {
    const requested = await call("POST", "/loans/request", borrower, { amount, interestRate, termMonths, purpose: "business" });
    assert.equal(requested.status, 201, requested.body?.message);
    const approved = await call("PUT", `/admin/loans/${requested.body.data._id}/approve`, admin, {});
    assert.equal(approved.status, 200, approved.body?.message);
    return BigInt(requested.body.data.loanNumber ?? approved.body.data.loanNumber);
  }

  const ownerOf = async (tokenId: bigint) => (await stack.chain.readContract({ address: loanNote(), abi: loanNoteAbi, functionName: "ownerOf", args: [tokenId] })).toLowerCase();
  const traderAt = (address: string) => traders.find((t) => t.wallet!.address.toLowerCase() === address);

  async function signAndPublish(user: TestUser, body: Record<string, unknown>): Promise<void> {
    const asked = await call("POST", "/orders/typed-data", user, body);
    if (asked.status !== 200) return; // e.g. a note no longer active: nothing to sign
    const t = asked.body.data.typedData;
    const message = Object.fromEntries(Object.entries(t.message).map(([k, v]) => [k, /^0x/.test(v as string) ? v : BigInt(v as string)]));
    const signature = await user.wallet!.signTypedData({ domain: t.domain, types: t.types, primaryType: t.primaryType, message } as never);
    const published = await call("POST", "/orders", user, { kind: body.kind, message: t.message, signature });
    assert.equal(published.status, 201, published.body?.message);
  }

  /** The transaction that would fill `row` on `tokenId` now, with who would send it; null when no trader could. */
  async function fillOf(row: typeof ordersTable.$inferSelect, tokenId: bigint, owner: string) {
    const message = messageOf(row) as never;
    const signature = row.signature as Hex;
    if (row.kind === "listing") {
      const buyer = traders.find((t) => t.wallet!.address.toLowerCase() !== row.signer)!;
      return { account: buyer, data: encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "fillListing", args: [message, signature, maxUint256] }) };
    }
    // Only a trader the test holds the key of can accept; an offer to oneself is no offer (the book hides it).
    const holder = traderAt(owner);
    if (!holder || owner === row.signer) return null;
    const data =
      row.kind === "offer"
        ? encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "acceptOffer", args: [message, signature, 0n] })
        : encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "acceptMatchingOffer", args: [message, signature, tokenId, 0n] });
    return { account: holder, data };
  }

  async function chainAllows(fill: { account: TestUser; data: Hex }): Promise<boolean> {
    try {
      // As the next block would run it: an order whose expiry is the latest block's second can no longer fill.
      await stack.chain.call({ account: fill.account.wallet!.address, to: marketplace(), data: fill.data, blockTag: "pending" });
      return true;
    } catch {
      return false;
    }
  }

  /** After a step: each note's book against the chain's verdict on every stored order. */
  async function compare(step: string) {
    const rows = await stack.api.database.db.select().from(ordersTable);
    for (const tokenId of notes) {
      const book = (await call("GET", `/orders/note/${tokenId}`)).body.data;
      const shown = new Set<string>([...book.listings, ...book.offers, ...book.matchingOffers].map((o: any) => o.hash));
      const owner = await ownerOf(tokenId).catch(() => null);
      for (const row of rows) {
        if (row.tokenId !== null && row.tokenId !== tokenId) continue;
        const fill = owner === null ? null : await fillOf(row, tokenId, owner);
        if (row.kind !== "listing" && owner !== null && !traderAt(owner)) continue; // the treasury holds it: nobody here could accept
        const allowed = fill !== null && (await chainAllows(fill));
        assert.equal(shown.has(row.hash), allowed, `${step}: ${row.kind} ${row.hash} on note ${tokenId}: book ${shown.has(row.hash)}, chain ${allowed}`);
      }
    }
  }

  before(async () => {
    stack = await startLoanStack({ indexer: true });
    [admin, borrower, ...traders] = await Promise.all([
      makeUser(stack.api, { admin: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
    ]);
    await fund(stack, borrower.wallet!.address, 20_000n * USD);
    for (const t of traders) {
      await fund(stack, t.wallet!.address, 100_000n * USD);
      await send(t, { to: stack.deployment.contracts.stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [marketplace(), maxUint256] }) });
      await send(t, { to: loanNote(), data: encodeFunctionData({ abi: loanNoteAbi, functionName: "setApprovalForAll", args: [marketplace(), true] }) });
    }
    await send(borrower, { to: stack.deployment.contracts.stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [loanNote(), maxUint256] }) });
    notes.push(await requestAndApprove("3000", 12, 12), await requestAndApprove("5000", 14, 24));
    await stack.indexer!.caughtUp();
    // Each of the first two traders buys a note from the treasury's listing, at 100% of par as the chain prices it now.
    for (const [i, tokenId] of notes.entries()) {
      const buyer = traders[i];
      const answer = await call("POST", `/nfts/${tokenId}/buy`, buyer, { expectedPrice: formatUsdAmount(await parPriceNow(stack, tokenId)) });
      assert.equal(answer.status, 200, answer.body?.message);
      await send(buyer, answer.body.data.calls.buy);
    }
    await stack.indexer!.caughtUp();
  });

  after(async () => {
    await stack?.close();
  });

  it(`holds after each of ${STEPS} seeded steps (seed ${SEED})`, async () => {
    for (let i = 0; i < STEPS; i++) {
      const tokenId = pick(notes);
      const owner = await ownerOf(tokenId).catch(() => null);
      const holder = owner ? traderAt(owner) : undefined;
      const other = pick(traders.filter((t) => t !== holder));
      const stored = await stack.api.database.db.select().from(ordersTable);
      const action = i < 3 ? (["list", "offer", "matching"] as const)[i] : pick(["list", "offer", "matching", "repay", "cancel", "counter", "fill", "fill", "time"] as const);
      const days = 2 + Math.floor(random() * 10);
      if (action === "list" && holder) {
        await signAndPublish(
          holder,
          random() < 0.5
            ? { kind: "listing", tokenId: String(tokenId), priceKind: "par", parBps: 9000 + Math.floor(random() * 1500), expiresInDays: days }
            : { kind: "listing", tokenId: String(tokenId), priceKind: "fixed", price: String(2000 + Math.floor(random() * 2000)), expiresInDays: days },
        );
      } else if (action === "offer") {
        await signAndPublish(
          other,
          random() < 0.5
            ? { kind: "offer", tokenId: String(tokenId), priceKind: "par", parBps: 8500 + Math.floor(random() * 1500), expiresInDays: days }
            : { kind: "offer", tokenId: String(tokenId), priceKind: "fixed", price: String(1500 + Math.floor(random() * 1500)), expiresInDays: days },
        );
      } else if (action === "matching") {
        await signAndPublish(other, {
          kind: "matchingOffer",
          priceKind: "par",
          parBps: 8000 + Math.floor(random() * 1500),
          budget: String(4000 + Math.floor(random() * 6000)),
          ranges: { minRateBps: 1100 },
          expiresInDays: days,
        });
      } else if (action === "repay") {
        await send(borrower, { to: loanNote(), data: encodeFunctionData({ abi: loanNoteAbi, functionName: "repay", args: [tokenId, 150n * USD] }) }).catch(() => null);
      } else if (action === "cancel" && stored.length) {
        const row = pick(stored);
        const signer = traderAt(row.signer)!;
        await send(signer, { to: marketplace(), data: encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "cancelOrders", args: [[row.hash as Hex]] }) });
      } else if (action === "counter") {
        await send(pick(traders), { to: marketplace(), data: encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "incrementCounter" }) });
      } else if (action === "fill" && owner) {
        const book = (await call("GET", `/orders/note/${tokenId}`)).body.data;
        const open = [...book.listings, ...book.offers, ...book.matchingOffers];
        if (open.length) {
          const chosen = pick(open);
          const row = stored.find((r) => r.hash === chosen.hash)!;
          const fill = await fillOf(row, tokenId, owner);
          if (fill) await send(fill.account, { to: marketplace(), data: fill.data });
        }
      } else if (action === "time") {
        await stack.rpc("evm_increaseTime", [86_400]);
        await stack.rpc("evm_mine", []);
      }
      await stack.indexer!.caughtUp();
      await compare(`step ${i} (${action})`);
    }
  });
});
