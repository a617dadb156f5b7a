import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Address } from "viem";
import { chainCollateral, chainCollections, chainNftOwners, chainNotes, chainOutbox } from "#db/schema/chain";
import { loanEvents, loans } from "#db/schema/loans";
import { REFINANCED_ID_OFFSET } from "#domain/noteIds";
import { users } from "#db/schema/users";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { startTestChain, type TestChain } from "#testing/chain";
import { collateralMoves, type CollateralMoves } from "#testing/collateral";
import { reindex } from "./reindex";
import { startIndexer, type Indexer } from "./sync";
import { compareWithChain, mirrorSnapshot } from "./verify";

const USD = 1_000_000n;
let chain: TestChain;
let database: TestDatabase;
let moves: CollateralMoves;
let indexer: Indexer | null = null;
const ids = {} as Record<"borrower" | "investor" | "other", string>;

before(async () => {
  [chain, database] = await Promise.all([startTestChain(), createTestDatabase()]);
  moves = collateralMoves(chain);
  for (const role of ["borrower", "investor", "other"] as const) {
    const [user] = await database.db.insert(users).values({ firstName: role, lastName: "Test", walletAddress: chain.actors[role].toLowerCase() }).returning({ id: users.id });
    ids[role] = user.id;
  }
});

after(async () => {
  await indexer?.stop();
  await database?.drop();
  await chain?.stop();
});

const lower = (address: string) => address.toLowerCase();
const owners = async (collection: string) =>
  (
    await database.db
      .select()
      .from(chainNftOwners)
      .where(eq(chainNftOwners.collection, lower(collection)))
      .orderBy(asc(chainNftOwners.tokenId))
  ).map((row) => [row.tokenId, row.owner]);
const pledge = async (tokenId: bigint) => (await database.db.select().from(chainCollateral).where(eq(chainCollateral.tokenId, tokenId)))[0];
const collateralRows = async (tokenId: bigint) =>
  (await database.db.select().from(chainOutbox).where(eq(chainOutbox.event, "collateral:update")).orderBy(asc(chainOutbox.id))).filter(
    (row) => (row.payload as { tokenId: string }).tokenId === String(tokenId) && row.kind === "event",
  );
async function mirrorEqualsChain() {
  assert.deepEqual(await compareWithChain(database.db, chain.publicClient, chain.deployment), []);
}

test("a backfill mirrors the deploy's allow-list and the demo collection's pieces, held by the borrower", async () => {
  indexer = startIndexer({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, pollIntervalMs: 50 });
  await indexer.caughtUp();

  const [demo] = await database.db.select().from(chainCollections);
  assert.equal(demo.collection, lower(moves.demo));
  assert.equal(demo.allowed, true);
  assert.equal(demo.slot, 1);
  const borrower = lower(chain.actors.borrower);
  assert.deepEqual(await owners(moves.demo), [
    [1n, borrower],
    [2n, borrower],
    [3n, borrower],
  ]);
  await mirrorEqualsChain();
});

test("a pledge followed live: locked at origination, returned at the final payment; the borrower's row names the loan, the holder hears of it apart", async () => {
  const { borrower, treasury, investor } = chain.actors;
  const [loan] = await database.db
    .insert(loans)
    .values({ loanNumber: 100n, userId: ids.borrower, amount: 1_000n * USD, principal: 1_000n * USD, purpose: "Art", rateBps: 1200, termMonths: 12, status: "approved" })
    .returning({ id: loans.id });
  const lockTx = await moves.originateSecured(100n, moves.demo, 1n);
  await indexer!.caughtUp();

  const locked = await pledge(100n);
  assert.equal(locked.state, "locked");
  assert.equal(locked.collection, lower(moves.demo));
  assert.equal(locked.collateralId, 1n);
  assert.equal(locked.borrower, lower(borrower));
  assert.equal(locked.lockedTxHash, lockTx);
  assert.equal(locked.closedTxHash, null);
  assert.equal((await owners(moves.demo))[0][1], lower(chain.deployment.contracts.collateralEscrow), "the piece is in escrow");
  const [lockRow] = await collateralRows(100n);
  assert.deepEqual(lockRow.payload, { tokenId: "100", state: "locked", collection: lower(moves.demo), collateralId: "1", txHash: lockTx, loanId: loan.id });
  assert.deepEqual([...lockRow.rooms].sort(), ["admins", "marketplace", `user:${ids.borrower}`].sort());
  assert.equal((await collateralRows(100n)).length, 1, "the treasury holds the new note: no account to tell apart");

  await chain.transfer(100n, treasury, investor);
  const repayTx = await chain.repay(100n, 2_000n * USD);
  await indexer!.caughtUp();

  const returned = await pledge(100n);
  assert.equal(returned.state, "returned");
  assert.equal(returned.closedTxHash, repayTx);
  assert.equal(returned.closedTo, lower(borrower));
  assert.equal(returned.lockedTxHash, lockTx);
  assert.equal((await owners(moves.demo))[0][1], lower(borrower), "the piece is back with the borrower");
  const [, toBorrower, toHolder] = await collateralRows(100n);
  const payload = { tokenId: "100", state: "returned", collection: lower(moves.demo), collateralId: "1", to: lower(borrower), txHash: repayTx };
  assert.deepEqual(toBorrower.payload, { ...payload, loanId: loan.id });
  assert.deepEqual([...toBorrower.rooms].sort(), ["admins", "marketplace", `user:${ids.borrower}`].sort());
  assert.deepEqual(toHolder.payload, { ...payload, audience: "holder" }, "the note's holder before the burn");
  assert.deepEqual(toHolder.rooms, [`user:${ids.investor}`]);
  await mirrorEqualsChain();
});

test("a collection that refuses the return leaves the piece waiting (returnFailed) until the borrower pulls it back", async () => {
  const { borrower } = chain.actors;
  const hostile = await moves.deployHostile();
  await moves.allow(hostile);
  await moves.mint(hostile, borrower, 7n);
  await moves.originateSecured(101n, hostile, 7n);
  await moves.refuseFrom(hostile, chain.deployment.contracts.collateralEscrow as Address);
  const repayTx = await chain.repay(101n, 2_000n * USD);
  await indexer!.caughtUp();

  const failed = await pledge(101n);
  assert.equal(failed.state, "returnFailed");
  assert.equal(failed.closedTxHash, repayTx);
  assert.equal(failed.closedTo, null);
  assert.deepEqual(await owners(hostile), [[7n, lower(chain.deployment.contracts.collateralEscrow)]]);
  const failedRow = (await collateralRows(101n)).at(-1)!;
  assert.deepEqual(failedRow.payload, { tokenId: "101", state: "returnFailed", collection: lower(hostile), collateralId: "7", to: lower(borrower), txHash: repayTx });
  assert.ok(failedRow.rooms.includes(`user:${ids.borrower}`));
  await mirrorEqualsChain();

  await moves.refuseFrom(hostile, "0x0000000000000000000000000000000000000000");
  const pullTx = await moves.claim(101n, borrower);
  await indexer!.caughtUp();
  const pulled = await pledge(101n);
  assert.equal(pulled.state, "returned");
  assert.equal(pulled.closedTxHash, pullTx);
  assert.equal(pulled.closedTo, lower(borrower));
  assert.deepEqual(await owners(hostile), [[7n, lower(borrower)]]);
  await mirrorEqualsChain();
});

test("after a default the note's holder claims the piece to another wallet: claimed, and the claimer and receiver hear of it apart from the borrower", async () => {
  const { treasury, investor, other } = chain.actors;
  await moves.originateSecured(102n, moves.demo, 2n);
  await chain.transfer(102n, treasury, investor);
  await chain.markDefaulted(102n);
  const claimTx = await moves.claim(102n, investor, other);
  await indexer!.caughtUp();

  const claimed = await pledge(102n);
  assert.equal(claimed.state, "claimed");
  assert.equal(claimed.closedTxHash, claimTx);
  assert.equal(claimed.closedTo, lower(other));
  assert.deepEqual((await owners(moves.demo))[1], [2n, lower(other)]);
  const rows = (await collateralRows(102n)).filter((row) => row.txHash === claimTx);
  const payload = { tokenId: "102", state: "claimed", collection: lower(moves.demo), collateralId: "2", to: lower(other), txHash: claimTx };
  assert.equal(rows.length, 2);
  assert.deepEqual(rows[0].payload, payload, "no loan follows note 102");
  assert.deepEqual([...rows[0].rooms].sort(), ["admins", "marketplace", `user:${ids.borrower}`].sort());
  assert.deepEqual(rows[1].payload, { ...payload, audience: "holder" });
  assert.deepEqual([...rows[1].rooms].sort(), [`user:${ids.investor}`, `user:${ids.other}`].sort());
  await mirrorEqualsChain();
});

test("a collection allowed after its pieces were minted and moved is caught up from the deploy block, then followed; disallowed, it is still followed", async () => {
  const { investor, other } = chain.actors;
  const art = await moves.deployCollection();
  await moves.mint(art, investor);
  await moves.mint(art, investor);
  await moves.transferPiece(art, investor, other, 1n);
  await indexer!.caughtUp();
  assert.deepEqual(await owners(art), [], "not followed before it is allowed");

  await moves.allow(art);
  await indexer!.caughtUp();
  assert.deepEqual(await owners(art), [
    [1n, lower(other)],
    [2n, lower(investor)],
  ]);
  const [row] = await database.db
    .select()
    .from(chainCollections)
    .where(eq(chainCollections.collection, lower(art)));
  assert.deepEqual([row.allowed, row.slot], [true, 3]);

  await moves.transferPiece(art, investor, other, 2n);
  await moves.disallow(art);
  await moves.transferPiece(art, other, investor, 1n);
  await indexer!.caughtUp();
  assert.deepEqual(await owners(art), [
    [1n, lower(investor)],
    [2n, lower(other)],
  ]);
  const [after] = await database.db
    .select()
    .from(chainCollections)
    .where(eq(chainCollections.collection, lower(art)));
  assert.deepEqual([after.allowed, after.slot, after.allowedBlock], [false, 3, row.allowedBlock]);
  await mirrorEqualsChain();
});

test("a batch that fails after catching a collection up leaves nothing, and the retry catches it up again", async () => {
  const { investor } = chain.actors;
  const art = await moves.deployCollection();
  await moves.mint(art, investor);
  await indexer!.caughtUp();
  await indexer!.stop();
  // The piece was minted below the mirror's block: only a catch-up finds it, in the first attempt and in the retry.
  await moves.allow(art);
  let failures = 0;
  indexer = startIndexer({
    db: database.db,
    rpcUrl: chain.rpcUrl,
    deployment: chain.deployment,
    pollIntervalMs: 50,
    beforeCommit() {
      if (failures++ === 0) throw new Error("simulated crash before commit");
    },
  });
  await indexer.caughtUp();
  assert.ok(failures >= 2, "the first attempt failed");
  assert.deepEqual(await owners(art), [[1n, lower(investor)]]);
  await mirrorEqualsChain();
});

test("a reorg takes back a collection's allowance with its caught-up owners, and a pledge with its escrow; their pushes are corrected", async () => {
  const { borrower, investor } = chain.actors;
  const art = await moves.deployCollection();
  await moves.mint(art, investor);
  await indexer!.caughtUp();
  const snapshot = await chain.rpc<string>("evm_snapshot");
  await moves.allow(art);
  await moves.originateSecured(103n, moves.demo, 3n);
  await indexer!.caughtUp();
  assert.deepEqual(await owners(art), [[1n, lower(investor)]]);
  assert.equal((await pledge(103n)).state, "locked");
  const doomed = await collateralRows(103n);
  assert.equal(doomed.length, 1);
  const oldHead = Number(await chain.publicClient.getBlockNumber());

  assert.equal(await chain.rpc("evm_revert", [snapshot]), true);
  while (Number(await chain.publicClient.getBlockNumber()) <= oldHead) await chain.rpc("evm_mine");
  await indexer!.caughtUp();

  assert.deepEqual(await owners(art), [], "no longer allowed, so no longer followed");
  assert.equal(
    (
      await database.db
        .select()
        .from(chainCollections)
        .where(eq(chainCollections.collection, lower(art)))
    ).length,
    0,
  );
  assert.equal(await pledge(103n), undefined);
  assert.deepEqual((await owners(moves.demo))[2], [3n, lower(borrower)]);
  const [corrected] = await database.db.select().from(chainOutbox).where(eq(chainOutbox.id, doomed[0].id));
  assert.equal(corrected.reverted, true);
  assert.equal(
    (
      await database.db
        .select()
        .from(chainOutbox)
        .where(and(eq(chainOutbox.correctsId, doomed[0].id), eq(chainOutbox.kind, "correction")))
    ).length,
    1,
  );
  await mirrorEqualsChain();

  // Allowed again on the new chain: caught up again.
  await moves.allow(art);
  await indexer!.caughtUp();
  assert.deepEqual(await owners(art), [[1n, lower(investor)]]);
});

test("a vaulted note's depositor claims its piece: the depositor is the holder told apart from the borrower", async () => {
  const { treasury, investor } = chain.actors;
  await moves.originateSecured(104n, moves.demo, 3n);
  await chain.transfer(104n, treasury, investor);
  await chain.deposit(104n, investor);
  await chain.markDefaulted(104n);
  const claimTx = await moves.claim(104n, investor);
  await indexer!.caughtUp();

  assert.equal((await pledge(104n)).state, "claimed");
  const rows = (await collateralRows(104n)).filter((row) => row.txHash === claimTx);
  assert.deepEqual(
    rows.map((row) => [(row.payload as { audience?: string }).audience ?? "borrower", [...row.rooms].sort()]),
    [
      ["borrower", ["admins", "marketplace", `user:${ids.borrower}`].sort()],
      ["holder", [`user:${ids.investor}`]],
    ],
  );
  await mirrorEqualsChain();
});

test("a refinance re-records the pledge for the new note without it leaving escrow, and the loans table follows; a reorg takes it all back", async () => {
  const { borrower, investor } = chain.actors;
  const [loan] = await database.db
    .insert(loans)
    .values({ loanNumber: 105n, userId: ids.borrower, amount: 1_000n * USD, principal: 1_000n * USD, purpose: "Art", rateBps: 1200, termMonths: 12, status: "approved" })
    .returning({ id: loans.id });
  const lockTx = await moves.originateSecured(105n, moves.demo, 1n);
  await indexer!.caughtUp();
  const snapshot = await chain.rpc<string>("evm_snapshot");
  const refinanceTx = await chain.refinance(105n, 1_500n * USD);
  await indexer!.caughtUp();

  const newId = 105n + REFINANCED_ID_OFFSET;
  const moved = await pledge(105n);
  assert.deepEqual([moved.state, moved.closedTxHash, moved.closedTo, moved.lockedTxHash], ["moved", refinanceTx, null, lockTx]);
  const carried = await pledge(newId);
  assert.deepEqual(
    [carried.state, carried.collection, carried.collateralId, carried.borrower, carried.lockedTxHash, carried.closedTxHash],
    ["locked", lower(moves.demo), 1n, lower(borrower), refinanceTx, null],
  );
  assert.equal((await owners(moves.demo))[0][1], lower(chain.deployment.contracts.collateralEscrow), "the piece never left the escrow");

  const [old] = await database.db.select().from(loans).where(eq(loans.id, loan.id));
  const [fresh] = await database.db.select().from(loans).where(eq(loans.loanNumber, newId));
  assert.deepEqual([old.status, old.refinancedTo, old.listingStatus], ["completed", fresh.id, "none"]);
  assert.deepEqual(
    [fresh.status, fresh.mintStatus, fresh.userId, fresh.principal, fresh.rateBps, fresh.termMonths, fresh.collateralCollection, fresh.nftTokenId, fresh.refinancedFrom],
    ["active", "minted", ids.borrower, 1_500n * USD, 900, 12, null, String(newId), loan.id],
  );
  const timeline = await database.db.select().from(loanEvents).where(eq(loanEvents.txHash, refinanceTx));
  assert.deepEqual(
    timeline.map((entry) => [entry.loanId, entry.action]).sort(),
    [
      [loan.id, "refinanced"],
      [fresh.id, "refinanced"],
    ].sort(),
  );
  const [toBorrower, toHolder] = (await collateralRows(newId)).filter((row) => row.txHash === refinanceTx);
  assert.deepEqual(toBorrower.payload, { tokenId: String(newId), state: "locked", collection: lower(moves.demo), collateralId: "1", movedFrom: "105", txHash: refinanceTx, loanId: fresh.id });
  assert.equal(toHolder, undefined, "the treasury held the old note: no account to tell apart");
  const refinanced = (await database.db.select().from(chainOutbox).where(eq(chainOutbox.event, "loan:refinanced"))).filter((row) => row.txHash === refinanceTx);
  assert.deepEqual(
    refinanced.map((row) => [(row.payload as { audience: string }).audience, [...row.rooms].sort(), (row.payload as { loanId?: string }).loanId ?? null]),
    [
      ["borrower", ["admins", `user:${ids.borrower}`].sort(), fresh.id],
      ["lender", [`user:${ids.investor}`], null],
    ],
    "the treasury held the old note: the borrower and the new lender are told",
  );
  const notes = await database.db
    .select()
    .from(chainNotes)
    .where(inArray(chainNotes.tokenId, [105n, newId]));
  assert.deepEqual(
    notes.map((note) => [note.tokenId, note.status, note.owner, note.burned]).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    [
      [105n, "repaid", "0x0000000000000000000000000000000000000000", true],
      [newId, "active", lower(investor), false],
    ],
  );
  await mirrorEqualsChain();

  const oldHead = Number(await chain.publicClient.getBlockNumber());
  assert.equal(await chain.rpc("evm_revert", [snapshot]), true);
  while (Number(await chain.publicClient.getBlockNumber()) <= oldHead) await chain.rpc("evm_mine");
  await indexer!.caughtUp();
  assert.equal(await pledge(newId), undefined);
  assert.equal((await pledge(105n)).state, "locked");
  const [restored] = await database.db.select().from(loans).where(eq(loans.id, loan.id));
  assert.deepEqual([restored.status, restored.refinancedTo, restored.completedAt], ["active", null, null]);
  assert.equal((await database.db.select().from(loans).where(eq(loans.loanNumber, newId))).length, 0, "the reorged refinance's loan is gone");
  await mirrorEqualsChain();

  // Refinanced again on the new chain (by lenders whose approvals the reorg did not take back), then a second time: the
  // rebuild below replays both.
  await chain.refinance(105n, 1_200n * USD, chain.actors.other);
  await chain.refinance(newId, 1_300n * USD, chain.actors.treasury, { rateBps: 800n });
  await indexer!.caughtUp();
  const third = await database.db
    .select()
    .from(loans)
    .where(eq(loans.loanNumber, newId + REFINANCED_ID_OFFSET));
  assert.deepEqual(
    third.map((row) => [row.status, row.principal, row.rateBps]),
    [["active", 1_300n * USD, 800]],
  );
  assert.equal((await pledge(newId + REFINANCED_ID_OFFSET)).state, "locked");
  await mirrorEqualsChain();
});

test("the collateral mirror rebuilt from the chain, one block a batch, equals the one built live", async () => {
  await indexer!.caughtUp();
  await indexer!.stop();
  indexer = null;
  const live = await mirrorSnapshot(database.db, chain.deployment.chainId);
  assert.ok(live.collateral.length >= 3 && live.collections.length >= 4 && live.nftOwners.length >= 8);
  await reindex({ db: database.db, rpcUrl: chain.rpcUrl, deployment: chain.deployment, range: { initial: 1, max: 1 } });
  assert.deepEqual(await mirrorSnapshot(database.db, chain.deployment.chainId), live);
  await mirrorEqualsChain();
});
