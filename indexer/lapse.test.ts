import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { and, asc, eq } from "drizzle-orm";
import { chainListings, chainOutbox } from "#db/schema/chain";
import { users } from "#db/schema/users";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { reindex } from "./reindex";
import { startIndexer, type Indexer } from "./sync";
import { startTestChain, type TestChain } from "#testing/chain";
import { compareWithChain, mirrorSnapshot } from "./verify";

/** A listing lapses when its note changes in a way its buyer priced, and the mirror says why. */

const USD = 1_000_000n;
let chain: TestChain;
let database: TestDatabase;
let indexer: Indexer;

before(async () => {
  [chain, database] = await Promise.all([startTestChain(), createTestDatabase()]);
  indexer = startIndexer({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 50 });
  await indexer.caughtUp();
});

after(async () => {
  await indexer?.stop();
  await database?.drop();
  await chain?.stop();
});

const listingsOf = (tokenId: bigint) =>
  database.db
    .select({ seller: chainListings.seller, status: chainListings.status, reason: chainListings.lapseReason, amount: chainListings.lapseAmount, closedTxHash: chainListings.closedTxHash })
    .from(chainListings)
    .where(eq(chainListings.tokenId, tokenId))
    .orderBy(asc(chainListings.blockNumber), asc(chainListings.logIndex));

const lapseRows = async (txHash: string) =>
  (
    await database.db
      .select()
      .from(chainOutbox)
      .where(and(eq(chainOutbox.txHash, txHash), eq(chainOutbox.kind, "event")))
  ).filter((row) => (row.payload as { lapsed?: string }).lapsed !== undefined);

test("a repayment, a default, a move and the final repayment each make the listing before them lapse, with the reason", async () => {
  const { treasury, investor, other } = chain.actors;
  const [holder] = await database.db.insert(users).values({ firstName: "Ivy", lastName: "Holder", walletAddress: investor.toLowerCase() }).returning({ id: users.id });
  // Nobody should own the treasury's wallet; if an account did, it must still not hear of the treasury's lapses.
  const [squatter] = await database.db.insert(users).values({ firstName: "Tess", lastName: "Treasury", walletAddress: treasury.toLowerCase() }).returning({ id: users.id });

  await chain.originate(21n);
  await chain.list(21n, 1_000n * USD);
  const repayment = await chain.repay(21n, 123_456_789n);
  await chain.originate(22n);
  await chain.transfer(22n, treasury, investor);
  await chain.list(22n, 900n * USD, investor);
  const defaulted = await chain.markDefaulted(22n);
  await chain.originate(23n);
  await chain.list(23n, 500n * USD);
  const moved = await chain.transfer(23n, treasury, other);
  await chain.originate(24n);
  await chain.transfer(24n, treasury, investor);
  await chain.list(24n, 800n * USD, investor);
  const burned = await chain.repay(24n, 2_000n * USD);
  await indexer.caughtUp();

  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
  const lapse = (seller: string, reason: string, amount: bigint | null, closedTxHash: string) => [{ seller: seller.toLowerCase(), status: "lapsed", reason, amount, closedTxHash }];
  assert.deepEqual(await listingsOf(21n), lapse(treasury, "repaid", 123_456_789n, repayment));
  assert.deepEqual(await listingsOf(22n), lapse(investor, "defaulted", null, defaulted));
  assert.deepEqual(await listingsOf(23n), lapse(treasury, "moved", null, moved));
  assert.deepEqual(await listingsOf(24n), lapse(investor, "burned", null, burned), "the final payment burns the note before its Repaid log");

  const [treasuryLapse] = await lapseRows(repayment);
  assert.deepEqual(treasuryLapse.rooms, ["marketplace"], "the treasury is no user: its lapse goes to the marketplace only");
  assert.ok(!treasuryLapse.rooms.includes(`user:${squatter.id}`));
  assert.deepEqual(treasuryLapse.payload, { type: "unlisted", amount: "123.456789", nftId: "21", tokenId: "21", txHash: repayment, lapsed: "repaid" });
  const [holderLapse] = await lapseRows(defaulted);
  assert.deepEqual([...holderLapse.rooms].sort(), ["marketplace", `user:${holder.id}`].sort());
  assert.deepEqual(holderLapse.payload, { type: "unlisted", amount: null, nftId: "22", tokenId: "22", txHash: defaulted, lapsed: "defaulted" });
});

test("a listing made after the repayment stays live, and a reorg that drops the repayment restores the listing", async () => {
  await chain.list(21n, 990n * USD);
  await indexer.caughtUp();
  const snapshot = await chain.rpc<string>("evm_snapshot");
  const oldHead = Number(await chain.publicClient.getBlockNumber());
  const repayment = await chain.repay(21n, 10n * USD);
  await indexer.caughtUp();
  assert.deepEqual(
    (await listingsOf(21n)).map((l) => [l.status, l.reason]),
    [
      ["lapsed", "repaid"],
      ["lapsed", "repaid"],
    ],
  );
  const [pushed] = await lapseRows(repayment);
  assert.ok(pushed, "the lapse was pushed");

  assert.equal(await chain.rpc("evm_revert", [snapshot]), true);
  while (Number(await chain.publicClient.getBlockNumber()) <= oldHead + 1) await chain.rpc("evm_mine");
  await indexer.caughtUp();

  assert.deepEqual(
    (await listingsOf(21n)).map((l) => [l.status, l.reason, l.amount, l.closedTxHash]),
    [
      ["lapsed", "repaid", 123_456_789n, (await listingsOf(21n))[0].closedTxHash],
      ["active", null, null, null],
    ],
  );
  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
  const [corrected] = await database.db.select().from(chainOutbox).where(eq(chainOutbox.id, pushed.id));
  assert.equal(corrected.reverted, true, "the pushed lapse is taken back");
});

test("a mirror rebuilt from the chain holds the same lapses as the one built live", async () => {
  await indexer.stop();
  const live = await mirrorSnapshot(database.db, chain.deployment.chainId);
  const other = await createTestDatabase();
  try {
    await reindex({ db: other.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, range: { initial: 1, max: 1 } });
    assert.deepEqual(await mirrorSnapshot(other.db, chain.deployment.chainId), live);
  } finally {
    await other.drop();
  }
});
