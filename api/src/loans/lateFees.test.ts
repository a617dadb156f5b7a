import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import { encodeFunctionData, maxUint256, parseEventLogs, type Address } from "viem";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { formatUsdAmount, parseUsd } from "#domain/money";
import { DAY_SECONDS } from "#domain/schedule";
import { chainLateFeePayments, chainNotes, notifications } from "#db/schema";
import { fund, makeUser, sendAs, startLoanStack, type LoanStack, type TestUser } from "#testing/loanStack";
import { NOTIFICATION_TEXTS } from "../notifications/texts";

/**
 * Late fees above the contract, on a real Postgres, a private anvil with the contracts and the real indexer: a borrower
 * two installments behind reads on the loan, on its note and in the repayment quote the same fees the contract
 * charges; paying everything past due in one payment makes status, grade, the treasury's par listing and the notices
 * follow as soon as that one block is indexed, with no job run in between.
 */
describe("late fees through the API", () => {
  const USD = 1_000_000n;
  const DAY = Number(DAY_SECONDS);
  let stack: LoanStack;
  let admin: TestUser, borrower: TestUser, investor: TestUser;
  let loanId = "";
  let tokenId = 0n;
  const call = (method: string, path: string, user?: TestUser, body?: unknown) => stack.api.call(method, path, { token: user?.token, body });
  const contracts = () => stack.deployment.contracts as Record<"loanNote" | "stablecoin", Address>;
  const read = <T>(functionName: string) => stack.chain.readContract({ address: contracts().loanNote, abi: loanNoteAbi, functionName, args: [tokenId] } as never) as Promise<T>;
  const db = () => stack.api.database.db;

  async function synced() {
    await stack.indexer!.caughtUp();
    await stack.api.server.outbox!.deliverNow();
  }

  before(async () => {
    stack = await startLoanStack({ indexer: true });
    [admin, borrower, investor] = await Promise.all([
      makeUser(stack.api, { admin: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
    ]);
    await fund(stack, borrower.wallet!.address, 20_000n * USD);
    const requested = await call("POST", "/loans/request", borrower, { amount: "6000", interestRate: 12, termMonths: 12, purpose: "business" });
    assert.equal(requested.status, 201, requested.body?.message);
    loanId = requested.body.data._id;
    tokenId = BigInt(requested.body.data.loanNumber);
    const approved = await call("PUT", `/admin/loans/${loanId}/approve`, admin, {});
    assert.equal(approved.status, 200, approved.body?.message);
    await synced();
    // Two installments missed, each past its late-fee grace period: two fees owed.
    await stack.rpc("evm_increaseTime", [76 * DAY]);
    await stack.rpc("evm_mine", []);
    await synced();
  });

  after(async () => {
    await stack?.close();
  });

  it("shows on the loan and on its note the fees the contract charges, inside what is past due and inside par", async () => {
    const [[fees, count], due, payoff] = await Promise.all([read<[bigint, bigint]>("lateFeesOf"), read<bigint>("amountDueNow"), read<bigint>("payoffAmount")]);
    assert.equal(count, 2n);
    assert.ok(fees > 0n);
    const loan = (await call("GET", `/loans/${loanId}`, borrower)).body.data;
    const note = (await call("GET", `/nfts/${tokenId}`, investor)).body.data;
    for (const servicing of [loan.servicing, note.servicing]) {
      assert.equal(servicing.status, "delinquent");
      assert.equal(servicing.feesOwed, formatUsdAmount(fees));
      assert.equal(servicing.lateFeeCount, 2);
      assert.equal(servicing.amountPastDue, formatUsdAmount(due), "what is past due includes the fees, as amountDueNow does");
      assert.equal(parseUsd(servicing.principalNow) + parseUsd(servicing.interestNow), payoff, "100% of par settles the note, fees included");
    }
  });

  it("quotes a repayment with the fees taken first, and refuses less than the first fee as the contract would", async () => {
    const [[fees], due] = await Promise.all([read<[bigint, bigint]>("lateFeesOf"), read<bigint>("amountDueNow")]);
    const quote = await call("PUT", `/loans/${loanId}/repayment`, borrower, { amount: formatUsdAmount(due) });
    assert.equal(quote.status, 200, quote.body?.message);
    assert.equal(quote.body.data.schedule.lateFeesOwed, formatUsdAmount(fees));
    assert.equal(quote.body.data.schedule.amountDueNow, formatUsdAmount(due));
    assert.equal(quote.body.data.lateFeesTaken, formatUsdAmount(fees));
    assert.equal(parseUsd(quote.body.data.lateFeesTaken) + parseUsd(quote.body.data.installmentsTaken), due);

    const tooSmall = await call("PUT", `/loans/${loanId}/repayment`, borrower, { amount: "1" });
    assert.equal(tooSmall.status, 400);
    assert.match(tooSmall.body.message, /^A payment pays the late fees owed first: pay at least the first one, \$/);
  });

  it("makes the loan current, its grade and the treasury's par listing follow, and tells the holder, once the payment's block is indexed", async () => {
    const before = (await call("GET", `/orders/note/${tokenId}`)).body.data;
    assert.equal(before.listings.length, 0, "a late note's listing is held back");
    assert.equal(before.late.length, 1);

    const due = await read<bigint>("amountDueNow");
    await sendAs(stack, borrower.wallet!, { to: contracts().stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [contracts().loanNote, maxUint256] }) });
    const hash = await sendAs(stack, borrower.wallet!, { to: contracts().loanNote, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "repay", args: [tokenId, due] }) });
    const receipt = await stack.chain.getTransactionReceipt({ hash });
    const [feesPaid] = parseEventLogs({ abi: loanNoteAbi, logs: receipt.logs, eventName: "LateFeesPaid" });
    await synced();

    const loan = (await call("GET", `/loans/${loanId}`, borrower)).body.data;
    const note = (await call("GET", `/nfts/${tokenId}`, investor)).body.data;
    for (const record of [loan, note]) {
      assert.deepEqual([record.servicing.status, record.servicing.feesOwed, record.servicing.amountPastDue], ["current", "0", "0"]);
      assert.equal(record.performance, "excellent");
    }
    const book = (await call("GET", `/orders/note/${tokenId}`)).body.data;
    assert.equal(book.late.length, 0);
    assert.equal(book.listings.length, 1, "the treasury's par listing is back in the book");

    const [mirrored] = await db().select().from(chainNotes).where(eq(chainNotes.tokenId, tokenId));
    assert.equal(mirrored.feesPaidThrough, Number(feesPaid.args.feesPaidThrough));
    assert.equal(mirrored.lateFeesPaid, feesPaid.args.amount);
    const rows = await db()
      .select()
      .from(chainLateFeePayments)
      .where(and(eq(chainLateFeePayments.tokenId, tokenId), eq(chainLateFeePayments.txHash, hash)));
    assert.deepEqual(
      rows.map((r) => [r.beneficiary, r.amount, r.feesPaidThrough, r.logIndex]),
      [[feesPaid.args.beneficiary.toLowerCase(), feesPaid.args.amount, Number(feesPaid.args.feesPaidThrough), feesPaid.logIndex]],
    );
    const told = await db().select().from(notifications).where(eq(notifications.userId, borrower.id));
    assert.ok(
      told.some((n) => n.message === NOTIFICATION_TEXTS.repayment(tokenId.toString(), due).message),
      "the payment's notice, fees included in its amount",
    );
  });
});
