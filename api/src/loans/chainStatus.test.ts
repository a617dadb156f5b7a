import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { and, asc, eq, sql } from "drizzle-orm";
import { createWalletClient, http, maxUint256, type Abi, type Address, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import type { Socket } from "socket.io-client";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { chainOutbox, loanEvents, loans, notifications } from "#db/schema";
import { startIndexer, type Indexer } from "#indexer/index";
import { reindex } from "#indexer/reindex";
import { openSocket, record } from "../realtime/testing";
import { fund, makeUser, notificationsOf, startLoanStack, validRequest, type LoanStack, type TestUser } from "#testing/loanStack";

const USD = 1_000_000n;
let stack: LoanStack;
let indexer: Indexer | null = null;
let admin: TestUser;
let borrower: TestUser;
let investor: TestUser;
let borrowerEvents: ReturnType<typeof record>;
let investorEvents: ReturnType<typeof record>;
let adminEvents: ReturnType<typeof record>;
const sockets: Socket[] = [];

const db = () => stack.api.database.db;
const contracts = () => stack.deployment.contracts as Record<"loanNote" | "marketplace" | "stablecoin" | "vault", Address>;
const follow = () => startIndexer({ db: db(), rpcUrl: stack.anvil.rpcUrl, deployment: stack.deployment, pollIntervalMs: 50 });

before(async () => {
  stack = await startLoanStack();
  indexer = follow();
  [admin, borrower, investor] = await Promise.all([
    makeUser(stack.api, { admin: true }),
    makeUser(stack.api, { kyc: "approved", wallet: true }),
    makeUser(stack.api, { kyc: "approved", wallet: true }),
  ]);
  await fund(stack, borrower.wallet!.address, 0n);
  const open = async (user: TestUser) => {
    const socket = await openSocket(stack.api.url, user.token);
    sockets.push(socket);
    return record(socket);
  };
  [borrowerEvents, investorEvents, adminEvents] = await Promise.all([open(borrower), open(investor), open(admin)]);
});
after(async () => {
  for (const socket of sockets) socket.close();
  await indexer?.stop();
  await stack?.close();
});

async function send(from: Hex | PrivateKeyAccount, address: Address, abi: unknown, functionName: string, args: unknown[]): Promise<Hex> {
  const account = typeof from === "string" ? privateKeyToAccount(from) : from;
  const wallet = createWalletClient({ account, chain: foundry, transport: http(stack.anvil.rpcUrl) });
  // Headroom over the estimate, as wallets give (see testing/chain.ts send): without it a repay ran out of gas
  // now and then when its block's time took another branch of the schedule than the estimate's.
  const estimate = await stack.chain.estimateContractGas({ address, abi: abi as Abi, functionName, args, account });
  const hash = await wallet.writeContract({ address, abi: abi as Abi, functionName, args, gas: estimate + estimate / 4n });
  const receipt = await stack.chain.waitForTransactionReceipt({ hash });
  assert.equal(receipt.status, "success", `${functionName} reverted`);
  return hash;
}

/** A request for the borrower, as the API leaves it once an admin approved it (or left as it is). */
async function requestLoan(body: Record<string, unknown> = {}, approve = true) {
  const answer = await stack.api.call("POST", "/loans/request", { token: borrower.token, body: { ...validRequest, ...body } });
  assert.equal(answer.status, 201, answer.body.message);
  const loan = answer.body.data as { _id: string; loanNumber: number; amount: string };
  if (approve) {
    const principal = BigInt(loan.amount) * USD;
    await db().update(loans).set({ status: "approved", mintStatus: "minting", principal, borrowerWallet: borrower.wallet!.address.toLowerCase() }).where(eq(loans.id, loan._id));
  }
  return loan;
}

/** The origination, sent with the originator's key: only the indexer can tell the database about it. */
const originate = (loan: { loanNumber: number; amount: string }, termMonths = 12) =>
  send(DEV_ACCOUNTS.originator, contracts().loanNote, loanNoteAbi, "originate", [BigInt(loan.loanNumber), borrower.wallet!.address, BigInt(loan.amount) * USD, 850, termMonths]);

/** The borrower's wallet pays `amount` (capped by the contract at what settles the loan). */
async function repay(loan: { loanNumber: number }, amount: bigint): Promise<Hex> {
  await fund(stack, borrower.wallet!.address, amount);
  await send(borrower.wallet!, contracts().stablecoin, testDollarAbi, "approve", [contracts().loanNote, maxUint256]);
  return send(borrower.wallet!, contracts().loanNote, loanNoteAbi, "repay", [BigInt(loan.loanNumber), amount]);
}

/** The mirror (and with it the loans) at the chain's head, and every outbox row delivered. */
async function synced() {
  await indexer!.caughtUp();
  await stack.api.server.outbox!.deliverNow();
}

const loanRow = async (id: string) => (await db().select().from(loans).where(eq(loans.id, id)))[0];
const timeline = async (id: string) => (await db().select().from(loanEvents).where(eq(loanEvents.loanId, id)).orderBy(asc(loanEvents.createdAt))).map((e) => e.action);
const statusRows = async (loanId: string) =>
  (
    await db()
      .select()
      .from(chainOutbox)
      .where(and(eq(chainOutbox.event, "loan:status"), sql`${chainOutbox.payload}->>'loanId' = ${loanId}`))
  ).filter((row) => row.kind === "event");
const texts = async (user: TestUser) => (await notificationsOf(stack.api, user.id)).map((n) => n.message);

describe("an off-chain loan follows its note, through the indexer", () => {
  test("the origination makes the approved loan active and minted, with its token id and transaction, and tells the borrower", async () => {
    const loan = await requestLoan();
    const hash = await originate(loan);
    await synced();
    const row = await loanRow(loan._id);
    assert.equal(row.status, "active");
    assert.equal(row.mintStatus, "minted");
    assert.equal(row.nftTokenId, String(loan.loanNumber));
    assert.equal(row.nftTransactionHash, hash);
    assert.ok(row.noteStart! > 0n);
    assert.ok((await timeline(loan._id)).includes("minted"));
    const status = borrowerEvents.named("loan:status").find((p) => p.loanId === loan._id);
    assert.deepEqual(status, { status: "active", amount: "5000", loanId: loan._id, tokenId: String(loan.loanNumber), txHash: hash });
  });

  test("a partial repayment leaves it active; the final one completes it and tells the borrower once", async () => {
    const loan = await requestLoan({ amount: "1000" });
    await originate(loan);
    await repay(loan, 100n * USD);
    await synced();
    assert.equal((await loanRow(loan._id)).status, "active");
    const hash = await repay(loan, 2_000n * USD);
    await synced();
    const row = await loanRow(loan._id);
    assert.equal(row.status, "completed");
    assert.ok(row.completedAt);
    assert.equal(row.listingStatus, "none");
    const event = await waitFor(() => borrowerEvents.named("loan:status").find((p) => p.loanId === loan._id && p.status === "completed"));
    assert.deepEqual(event, { status: "completed", amount: "1000", loanId: loan._id, tokenId: String(loan.loanNumber), txHash: hash });
    const notice = `Loan #${loan.loanNumber} is fully repaid.`;
    assert.equal((await texts(borrower)).filter((text) => text === notice).length, 1);
    assert.equal((await statusRows(loan._id)).length, 2, "active, then completed");
  });

  test("a default makes the active loan defaulted and tells borrower, the note's holder and admins", async () => {
    const loan = await requestLoan({ amount: "1000", termMonths: 1 });
    await originate(loan, 1);
    // The treasury (the lender of record) passes the note to the investor, who then holds it.
    await send(DEV_ACCOUNTS.treasury, contracts().loanNote, loanNoteAbi, "transferFrom", [stack.deployment.treasury, investor.wallet!.address, BigInt(loan.loanNumber)]);
    await stack.rpc("evm_increaseTime", [61 * 86_400]);
    await stack.rpc("evm_mine", []);
    const hash = await send(DEV_ACCOUNTS.originator, contracts().loanNote, loanNoteAbi, "markDefaulted", [BigInt(loan.loanNumber)]);
    await synced();
    const row = await loanRow(loan._id);
    assert.equal(row.status, "defaulted");
    assert.ok(row.defaultedAt);
    const notice = `Loan #${loan.loanNumber} ($1,000.00) was marked as defaulted.`;
    const stored = async (user: TestUser) => (await notificationsOf(stack.api, user.id)).filter((n) => n.message === notice).map((n) => [n.type, n.link]);
    assert.deepEqual(await stored(borrower), [["loan_status", `/loans/${loan._id}`]]);
    assert.deepEqual(await stored(investor), [["loan_status", "/portfolio"]]);
    assert.deepEqual(await stored(admin), [["system_alert", `/admin/loans?loan=${loan._id}`]]);
    const tokenId = String(loan.loanNumber);
    assert.deepEqual(
      await waitFor(() => investorEvents.named("loan:status").find((p) => p.tokenId === tokenId)),
      { status: "defaulted", amount: "1000", tokenId, txHash: hash },
      "the holder hears of the note, not of someone else's loan",
    );
    const alert = await waitFor(() => adminEvents.named("admin:notification").find((p) => p.tokenId === tokenId));
    assert.deepEqual(alert, { type: "system_alert", message: notice, loanId: loan._id, tokenId, txHash: hash });
  });

  test("a default of a note in the vault tells its depositor, who holds it, and not the vault", async () => {
    const loan = await requestLoan({ amount: "1000", termMonths: 1 });
    await originate(loan, 1);
    const tokenId = BigInt(loan.loanNumber);
    await send(DEV_ACCOUNTS.treasury, contracts().loanNote, loanNoteAbi, "transferFrom", [stack.deployment.treasury, investor.wallet!.address, tokenId]);
    await fund(stack, investor.wallet!.address, 0n);
    await send(investor.wallet!, contracts().loanNote, loanNoteAbi, "safeTransferFrom", [investor.wallet!.address, contracts().vault, tokenId]);
    await stack.rpc("evm_increaseTime", [61 * 86_400]);
    await stack.rpc("evm_mine", []);
    const hash = await send(DEV_ACCOUNTS.originator, contracts().loanNote, loanNoteAbi, "markDefaulted", [tokenId]);
    await synced();
    assert.equal((await loanRow(loan._id)).status, "defaulted");
    const notice = `Loan #${loan.loanNumber} ($1,000.00) was marked as defaulted.`;
    const stored = (await notificationsOf(stack.api, investor.id)).filter((n) => n.message === notice).map((n) => [n.type, n.link]);
    assert.deepEqual(stored, [["loan_status", "/portfolio"]], "the depositor holds the note the vault owns");
    const holderRows = (await db().select().from(chainOutbox).where(eq(chainOutbox.event, "loan:status"))).filter(
      (row) => row.kind === "event" && (row.payload as { tokenId?: string }).tokenId === String(loan.loanNumber) && !(row.payload as { loanId?: string }).loanId,
    );
    assert.deepEqual(
      holderRows.map((row) => [row.rooms, row.payload]),
      [[[`user:${investor.id}`], { status: "defaulted", amount: "1000", tokenId: String(loan.loanNumber), txHash: hash }]],
    );
  });

  test("a defaulted loan repaid in full completes, and tells the borrower", async () => {
    const loan = await requestLoan({ amount: "1000", termMonths: 1 });
    await originate(loan, 1);
    await stack.rpc("evm_increaseTime", [61 * 86_400]);
    await stack.rpc("evm_mine", []);
    await send(DEV_ACCOUNTS.originator, contracts().loanNote, loanNoteAbi, "markDefaulted", [BigInt(loan.loanNumber)]);
    await synced();
    assert.equal((await loanRow(loan._id)).status, "defaulted");
    const hash = await repay(loan, 2_000n * USD);
    await synced();
    const row = await loanRow(loan._id);
    assert.deepEqual([row.status, row.listingStatus], ["completed", "none"]);
    assert.ok(row.completedAt);
    assert.deepEqual((await timeline(loan._id)).slice(-2), ["defaulted", "completed"]);
    const event = await waitFor(() => borrowerEvents.named("loan:status").find((p) => p.loanId === loan._id && p.status === "completed"));
    assert.deepEqual(event, { status: "completed", amount: "1000", loanId: loan._id, tokenId: String(loan.loanNumber), txHash: hash });
  });

  test("a request whose status does not allow the change does not follow a note originated behind the API", async () => {
    const pending = await requestLoan({}, false);
    const rejected = await requestLoan({}, false);
    const refused = await stack.api.call("PUT", `/admin/loans/${rejected._id}/reject`, { token: admin.token, body: { rejectionReason: "Too risky" } });
    assert.equal(refused.status, 200, refused.body.message);
    const before = [await loanRow(pending._id), await loanRow(rejected._id)];
    await originate(pending);
    await originate(rejected);
    await synced();
    assert.deepEqual([await loanRow(pending._id), await loanRow(rejected._id)], before);
    assert.deepEqual([...(await statusRows(pending._id)), ...(await statusRows(rejected._id))], []);
  });

  test("a client never sets a loan's status, mint status, token id or transaction", async () => {
    const forged = { status: "active", mintStatus: "minted", nftTokenId: "1", nftTransactionHash: `0x${"ab".repeat(32)}`, principal: "1000000" };
    const answer = await stack.api.call("POST", "/loans/request", { token: borrower.token, body: { ...validRequest, ...forged } });
    assert.equal(answer.status, 201, answer.body.message);
    const row = await loanRow(answer.body.data._id);
    assert.deepEqual([row.status, row.mintStatus, row.nftTokenId, row.nftTransactionHash, row.principal], ["pending", "none", null, null, null]);
    const approved = await stack.api.call("PUT", `/admin/loans/${row.id}/approve`, { token: admin.token, body: { ...forged, fundingAmount: "1000" } });
    assert.equal(approved.status, 200, approved.body.message);
    await synced();
    const after = await loanRow(row.id);
    assert.equal(after.principal, 1_000n * USD, "the funding amount, not the forged principal");
    assert.notEqual(after.nftTransactionHash, forged.nftTransactionHash);
    assert.equal(after.nftTokenId, String(after.loanNumber));
  });
});

describe("replays and reorgs", () => {
  test("a batch that fails before its commit changes no loan, and the retried one tells the borrower once", async () => {
    await indexer!.stop();
    const loan = await requestLoan();
    await originate(loan);
    let failures = 0;
    const crashing = startIndexer({
      db: db(),
      rpcUrl: stack.anvil.rpcUrl,
      deployment: stack.deployment,
      pollIntervalMs: 50,
      beforeCommit() {
        if (failures++ === 0) throw new Error("simulated crash before commit");
      },
    });
    indexer = crashing;
    await crashing.caughtUp();
    await stack.api.server.outbox!.deliverNow();
    assert.ok(failures >= 2, "the first attempt failed and was retried");
    assert.equal((await loanRow(loan._id)).status, "active");
    assert.equal((await statusRows(loan._id)).length, 1);
    assert.equal((await timeline(loan._id)).filter((action) => action === "minted").length, 1);
  });

  test("rebuilding the mirror from the chain replays every change without touching a loan or pushing anything", async () => {
    await indexer!.stop();
    indexer = null;
    const snapshot = async () => ({
      loans: await db().select().from(loans).orderBy(asc(loans.loanNumber)),
      events: (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(loanEvents)
      )[0].n,
      outbox: (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(chainOutbox)
      )[0].n,
      notifications: (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(notifications)
      )[0].n,
    });
    const before = await snapshot();
    assert.ok(before.loans.some((loan) => loan.status === "completed") && before.loans.some((loan) => loan.status === "defaulted"));
    try {
      await reindex({ db: db(), rpcUrl: stack.anvil.rpcUrl, deployment: stack.deployment });
      assert.deepEqual(await snapshot(), before);
    } finally {
      indexer = follow();
    }
    await synced();
  });

  test("a reorg that drops the final repayment brings the loan back to active, withdraws the notice and pushes the correction; mined again, it completes again", async () => {
    const loan = await requestLoan({ amount: "1000" });
    await originate(loan);
    await synced();
    const active = await loanRow(loan._id);
    const fork = await stack.rpc("evm_snapshot");

    await repay(loan, 2_000n * USD);
    await synced();
    assert.equal((await loanRow(loan._id)).status, "completed");
    const notice = `Loan #${loan.loanNumber} is fully repaid.`;
    assert.ok((await texts(borrower)).includes(notice));
    const oldHead = await stack.chain.getBlockNumber();

    assert.equal(await stack.rpc("evm_revert", [fork]), true);
    // Other blocks in place of the dropped ones, more of them, so the indexer sees changed hashes.
    while ((await stack.chain.getBlockNumber()) <= oldHead) await stack.rpc("evm_mine", []);
    await synced();
    const back = await loanRow(loan._id);
    assert.deepEqual({ ...back, updatedAt: null }, { ...active, updatedAt: null }, "exactly as before the repayment");
    assert.ok(!(await timeline(loan._id)).includes("completed"));
    assert.ok(!(await texts(borrower)).includes(notice), "the notice of a repayment the chain took back is withdrawn");
    const correction = await waitFor(() => borrowerEvents.named("loan:status").find((p) => p.loanId === loan._id && p.reverted));
    assert.equal(correction.status, "completed");

    await repay(loan, 2_000n * USD);
    await synced();
    assert.equal((await loanRow(loan._id)).status, "completed");
    assert.equal((await texts(borrower)).filter((text) => text === notice).length, 1);
  });

  test("a reorg that drops the origination puts the loan back as the approval left it", async () => {
    const loan = await requestLoan();
    const approved = await loanRow(loan._id);
    const fork = await stack.rpc("evm_snapshot");
    await originate(loan);
    await synced();
    assert.equal((await loanRow(loan._id)).mintStatus, "minted");
    const oldHead = await stack.chain.getBlockNumber();
    assert.equal(await stack.rpc("evm_revert", [fork]), true);
    while ((await stack.chain.getBlockNumber()) <= oldHead) await stack.rpc("evm_mine", []);
    await synced();
    const back = await loanRow(loan._id);
    assert.deepEqual({ ...back, updatedAt: null }, { ...approved, updatedAt: null });
    assert.equal(back.nftTokenId, null);
  });
});

async function waitFor<T>(find: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error("not received in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
