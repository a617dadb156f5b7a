import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { and, asc, eq, sql } from "drizzle-orm";
import { chainOutbox, chainTransfers, chainCursors, chainNotes } from "#db/schema/chain";
import { users } from "#db/schema/users";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { reindex } from "./reindex";
import { startIndexer, type Indexer } from "./sync";
import { startTestChain, type TestChain } from "#testing/chain";
import { compareWithChain, mirrorSnapshot } from "./verify";
import type { Address } from "viem";
import { noteMarketplaceAbi } from "#domain/abis";

const USD = 1_000_000n;
let chain: TestChain;
let database: TestDatabase;
let indexer: Indexer | null = null;

before(async () => {
  [chain, database] = await Promise.all([startTestChain(), createTestDatabase()]);
});

after(async () => {
  await indexer?.stop();
  await database?.drop();
  await chain?.stop();
});

async function chainTransferCount(): Promise<number> {
  const logs = await chain.publicClient.getLogs({
    address: chain.deployment.contracts.loanNote as `0x${string}`,
    event: {
      type: "event",
      name: "Transfer",
      inputs: [
        { type: "address", name: "from", indexed: true },
        { type: "address", name: "to", indexed: true },
        { type: "uint256", name: "tokenId", indexed: true },
      ],
    },
    fromBlock: 0n,
  });
  return logs.length;
}

test("a backfill mirrors the notes, listings, sales, repayments, credits and vault moves (in and out) made before the indexer started", async () => {
  const { treasury, investor, other, borrower } = chain.actors;
  await chain.originate(1n);
  await chain.list(1n, 1_000n * USD);
  await chain.buy(1n, 1_000n * USD);
  await chain.originate(2n);
  await chain.deposit(2n, treasury);
  await chain.repay(2n, 100n * USD);
  await chain.repay(1n, 60n * USD);
  await chain.withdrawCredits(investor);
  await chain.originate(3n, 250n * USD);
  await chain.list(3n, 240n * USD);
  await chain.transfer(3n, treasury, other); // lapses the listing
  await chain.deposit(3n, other);
  await chain.withdrawFromVault(3n, other); // closes the position: the note is back in the holder's wallet

  indexer = startIndexer({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 50 });
  await indexer.caughtUp();

  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
  const mirror = await mirrorSnapshot(database.db, chain.deployment.chainId);
  assert.equal(mirror.notes.length, 3);
  assert.deepEqual(
    mirror.listings.map((l) => (l as { status: string }).status),
    ["sold", "lapsed"],
  );
  // Who sold to whom, for how much and what fee; who paid each repayment and who it was credited to (the vault's
  // depositor for a note in the vault): the chain's logs, party for party.
  const feeBps = BigInt(await chain.publicClient.readContract({ address: chain.deployment.contracts.marketplace as Address, abi: noteMarketplaceAbi, functionName: "feeBps" }));
  const fields = (rows: unknown[], keys: string[]) => rows.map((row) => keys.map((key) => (row as Record<string, unknown>)[key]));
  assert.deepEqual(fields(mirror.sales, ["tokenId", "seller", "buyer", "price", "fee"]), [
    ["1", treasury.toLowerCase(), investor.toLowerCase(), String(1_000n * USD), String((1_000n * USD * feeBps) / 10_000n)],
  ]);
  assert.deepEqual(fields(mirror.repayments, ["tokenId", "payer", "beneficiary", "amount", "totalRepaid"]), [
    ["2", borrower.toLowerCase(), treasury.toLowerCase(), String(100n * USD), String(100n * USD)],
    ["1", borrower.toLowerCase(), investor.toLowerCase(), String(60n * USD), String(60n * USD)],
  ]);
  assert.deepEqual(fields(mirror.notes, ["tokenId", "borrower", "principal"]), [
    ["1", borrower.toLowerCase(), String(1_000n * USD)],
    ["2", borrower.toLowerCase(), String(1_000n * USD)],
    ["3", borrower.toLowerCase(), String(250n * USD)],
  ]);
  assert.equal(mirror.creditWithdrawals.length, 1);
  assert.deepEqual(
    mirror.vaultMoves.map((m) => [(m as { tokenId: string }).tokenId, (m as { kind: string }).kind]),
    [
      ["2", "deposit"],
      ["3", "deposit"],
      ["3", "withdraw"],
    ],
  );
  assert.deepEqual(
    mirror.vaultPositions.map((p) => [(p as { tokenId: string }).tokenId, (p as { active: boolean }).active]),
    [
      ["2", true],
      ["3", false],
    ],
  );
  assert.equal(mirror.transfers.length, await chainTransferCount());
  const note2 = mirror.notes.find((n) => (n as { tokenId: string }).tokenId === "2") as Record<string, unknown>;
  assert.equal(note2.owner, chain.deployment.contracts.vault.toLowerCase());
  assert.equal(note2.holder, treasury.toLowerCase(), "a vaulted note is held by its depositor");
  const note3 = mirror.notes.find((n) => (n as { tokenId: string }).tokenId === "3") as Record<string, unknown>;
  assert.equal(note3.owner, other.toLowerCase(), "a withdrawn note is back in the depositor's wallet");
  assert.equal(note3.holder, other.toLowerCase());
  const outbox = await database.db.select().from(chainOutbox);
  assert.equal(outbox.length, 0, "history replayed on a fresh mirror is not pushed");
});

test("live following writes each event's outbox rows, addressed to the rooms of the accounts involved", async () => {
  const { investor, other } = chain.actors;
  const [user] = await database.db.insert(users).values({ firstName: "Ivy", lastName: "Investor", walletAddress: investor.toLowerCase() }).returning({ id: users.id });
  await chain.originate(4n);
  await chain.list(4n, 990n * USD);
  await chain.updatePrice(4n, 980n * USD);
  await chain.buy(4n, 980n * USD, investor);
  await chain.repay(4n, 20n * USD, other);
  await indexer!.caughtUp();

  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
  const rows = await database.db.select().from(chainOutbox).orderBy(asc(chainOutbox.id));
  const summary = rows.map((row) => `${row.event}:${(row.payload as { type?: string }).type ?? ""}`);
  assert.deepEqual(summary, ["loan:funded:", "marketplace:update:listed", "marketplace:update:price_updated", "marketplace:update:sold", "marketplace:update:repaid"]);
  const sold = rows[3];
  assert.deepEqual((sold.rooms as string[]).sort(), ["marketplace", `user:${user.id}`].sort());
  assert.deepEqual(sold.payload, { type: "sold", amount: "980", nftId: "4", tokenId: "4", txHash: sold.txHash });
  const funded = rows[0];
  assert.deepEqual(funded.rooms, ["admins"], "the borrower's wallet has no account here, so only admins hear of it");
  assert.equal((funded.payload as { amount: string }).amount, "1000");
  const repaid = rows[4];
  assert.ok((repaid.rooms as string[]).includes(`user:${user.id}`), "the holder hears of a repayment credited to them");
});

test("a crash in the middle of a batch leaves no duplicates and no gaps after the restart", async () => {
  await indexer?.stop();
  indexer = null;
  const [before] = await database.db.select().from(chainCursors);
  for (let id = 10n; id < 16n; id++) await chain.originate(id);
  await chain.list(10n, 500n * USD);
  const head = Number(await chain.publicClient.getBlockNumber());
  assert.ok(head - before.blockNumber > 4, "more than two batches of two blocks to mirror");
  // Every batch from the third on crashes before its commit, however often the indexer retries: where it
  // stands when stopped does not depend on how fast it ran.
  let batches = 0;
  let crashed!: () => void;
  const firstCrash = new Promise<void>((resolve) => (crashed = resolve));
  const crashing = startIndexer({
    db: database.db,
    rpcUrl: chain.rpcUrl,
    deployment: chain.deployment,
    pollIntervalMs: 50,
    range: { initial: 2, max: 2 },
    beforeCommit() {
      if (++batches < 3) return;
      crashed();
      throw new Error("simulated crash before commit");
    },
  });
  await firstCrash;
  while (!crashing.status().lastError) await new Promise((r) => setTimeout(r, 20));
  await crashing.stop();
  assert.match(String(crashing.status().lastError), /simulated crash/);
  const [cursor] = await database.db.select().from(chainCursors);
  assert.equal(cursor.blockNumber, before.blockNumber + 4, "the two batches before the crash committed, the crashed one did not");

  indexer = startIndexer({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 50 });
  await indexer.caughtUp();
  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
  const [{ count }] = await database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(chainTransfers)
    .where(eq(chainTransfers.chainId, chain.deployment.chainId));
  assert.equal(count, await chainTransferCount());
  const notes = await database.db
    .select({ id: chainNotes.tokenId })
    .from(chainNotes)
    .where(and(eq(chainNotes.chainId, 31337)));
  assert.equal(notes.length, 10);
});

test("a mirror rebuilt from the chain equals the mirror built live, and pushes nothing again", async () => {
  await indexer!.caughtUp();
  await indexer!.stop();
  indexer = null;
  const live = await mirrorSnapshot(database.db, chain.deployment.chainId);
  const outboxBefore = (await database.db.select().from(chainOutbox)).length;
  const result = await reindex({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment });
  assert.equal(result.blockNumber, Number(await chain.publicClient.getBlockNumber()));
  const rebuilt = await mirrorSnapshot(database.db, chain.deployment.chainId);
  assert.deepEqual(rebuilt, live);
  const outboxAfter = await database.db.select().from(chainOutbox).where(eq(chainOutbox.kind, "event"));
  assert.equal(outboxAfter.length, outboxBefore);
});

test("a rebuild one block a batch, where rows made by one batch are changed by later ones, equals the mirror built live", async () => {
  const before = await mirrorSnapshot(database.db, chain.deployment.chainId);
  await reindex({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, range: { initial: 1, max: 1 } });
  assert.deepEqual(await mirrorSnapshot(database.db, chain.deployment.chainId), before);
  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
});
