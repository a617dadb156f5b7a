import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq, sql } from "drizzle-orm";
import { encodeFunctionData, maxUint256, parseEventLogs, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { formatUsdAmount, parseUsd } from "#domain/money";
import { DAY_SECONDS } from "#domain/schedule";
import { chainNotes } from "#db/schema";
import { fund, makeUser, sendAs, startLoanStack, type LoanStack, type TestUser } from "#testing/loanStack";

/**
 * Late fees in the statements and in the reconciliation, compared with the chain's own logs: two loans late past their
 * late-fee grace period, one held by an investor and one by the treasury, each cured by one payment that pays the fee
 * first. The loan statement lists the fee and splits the payment; the investor's statement counts the fee inside what
 * was received; the treasury's proof names the fees credited to it.
 */
describe("late fees in statements and in the reconciliation, equal to the chain's logs", () => {
  const USD = 1_000_000n;
  let stack: LoanStack;
  let admin: TestUser, borrower: TestUser, investor: TestUser;
  const held = { loanId: "", tokenId: 0n, hash: "0x" as Hex };
  const treasuryHeld = { loanId: "", tokenId: 0n, hash: "0x" as Hex };
  const wide = `from=2020-01-01&to=${new Date(Date.now() + 3 * 365 * 86_400_000).toISOString().slice(0, 10)}`;
  const call = (method: string, path: string, user?: TestUser, body?: unknown) => stack.api.call(method, path, { token: user?.token, body });
  const contracts = () => stack.deployment.contracts as Record<"loanNote" | "stablecoin", Address>;
  const db = () => stack.api.database.db;
  const logsOf = async (hash: Hex) => {
    const { logs } = await stack.chain.getTransactionReceipt({ hash });
    return { fee: parseEventLogs({ abi: loanNoteAbi, logs, eventName: "LateFeesPaid" })[0], repaid: parseEventLogs({ abi: loanNoteAbi, logs, eventName: "Repaid" })[0] };
  };

  async function originate(amount: string) {
    const requested = await call("POST", "/loans/request", borrower, { amount, interestRate: 12, termMonths: 12, purpose: "business" });
    assert.equal(requested.status, 201, requested.body?.message);
    const approved = await call("PUT", `/admin/loans/${requested.body.data._id}/approve`, admin, {});
    assert.equal(approved.status, 200, approved.body?.message);
    return { loanId: requested.body.data._id as string, tokenId: BigInt(requested.body.data.loanNumber) };
  }

  async function payPastDue(tokenId: bigint): Promise<Hex> {
    const due = await stack.chain.readContract({ address: contracts().loanNote, abi: loanNoteAbi, functionName: "amountDueNow", args: [tokenId] });
    return sendAs(stack, borrower.wallet!, { to: contracts().loanNote, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "repay", args: [tokenId, due] }) });
  }

  before(async () => {
    stack = await startLoanStack({ indexer: true });
    [admin, borrower, investor] = await Promise.all([
      makeUser(stack.api, { admin: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
    ]);
    await fund(stack, borrower.wallet!.address, 10_000n * USD);
    await sendAs(stack, borrower.wallet!, { to: contracts().stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [contracts().loanNote, maxUint256] }) });
    Object.assign(held, await originate("4000"));
    Object.assign(treasuryHeld, await originate("3000"));
    const treasury = privateKeyToAccount(DEV_ACCOUNTS.treasury);
    await sendAs(stack, treasury, {
      to: contracts().loanNote,
      data: encodeFunctionData({ abi: loanNoteAbi, functionName: "transferFrom", args: [treasury.address, investor.wallet!.address, held.tokenId] }),
    });
    // The first installment is unpaid a day past its late-fee grace period.
    await stack.rpc("evm_increaseTime", [Number(46n * DAY_SECONDS)]);
    await stack.rpc("evm_mine", []);
    held.hash = await payPastDue(held.tokenId);
    treasuryHeld.hash = await payPastDue(treasuryHeld.tokenId);
    await stack.indexer!.caughtUp();
  });

  after(async () => {
    await stack?.close();
  });

  it("lists the late fee on the loan statement and splits the payment into fee, interest and principal", async () => {
    const { fee, repaid } = await logsOf(held.hash);
    assert.ok(fee && fee.args.amount > 0n, "the payment paid a late fee");
    const res = await call("GET", `/loans/${held.loanId}/statement`, borrower);
    assert.equal(res.status, 200, res.body?.message);
    const s = res.body.data;
    assert.deepEqual(s.fees, [{ kind: "late_fee", time: s.fees[0].time, amount: formatUsdAmount(fee.args.amount), txHash: held.hash }]);
    const [payment] = s.payments;
    assert.equal(payment.amount, formatUsdAmount(repaid.args.amount), "Repaid.amount: everything the payment took");
    assert.equal(payment.lateFee, formatUsdAmount(fee.args.amount));
    assert.equal(parseUsd(payment.lateFee) + parseUsd(payment.interest) + parseUsd(payment.principal), repaid.args.amount);
    assert.equal(s.totals.feesPaid, formatUsdAmount(fee.args.amount));
    assert.equal(s.totals.paid, formatUsdAmount(repaid.args.amount));
    assert.equal(parseUsd(s.totals.paid), repaid.args.totalRepaid + fee.args.amount, "installments repaid and fees paid");
  });

  it("counts the late fee inside what the investor received, apart", async () => {
    const { fee, repaid } = await logsOf(held.hash);
    assert.equal(fee.args.beneficiary.toLowerCase(), investor.wallet!.address.toLowerCase(), "credited to the note's holder");
    const res = await call("GET", `/portfolio/statement?${wide}`, investor);
    assert.equal(res.status, 200, res.body?.message);
    const s = res.body.data;
    assert.deepEqual(
      s.receipts.map((r: { txHash: string; amount: string; lateFee: string }) => [r.txHash, r.amount, r.lateFee]),
      [[held.hash, formatUsdAmount(repaid.args.amount), formatUsdAmount(fee.args.amount)]],
    );
    assert.equal(s.totals.received, formatUsdAmount(repaid.args.amount));
    assert.equal(s.totals.lateFeesReceived, formatUsdAmount(fee.args.amount));
  });

  it("names in the treasury's proof the late fees credited to it, and still balances", async () => {
    const { fee } = await logsOf(treasuryHeld.hash);
    assert.equal(fee.args.beneficiary.toLowerCase(), stack.deployment.treasury.toLowerCase());
    const res = await call("GET", "/admin/reconciliation", admin);
    assert.equal(res.status, 200, res.body?.message);
    const { treasury, differences, clean } = res.body.data;
    assert.equal(treasury.credits.lateFees, formatUsdAmount(fee.args.amount));
    assert.ok(parseUsd(treasury.credits.credited) >= fee.args.amount);
    assert.equal(treasury.credits.balances, true);
    assert.deepEqual(differences, []);
    assert.equal(clean, true);
  });

  it("lists a planted difference in how far the mirror says a note's fees are paid", async () => {
    await db()
      .update(chainNotes)
      .set({ feesPaidThrough: sql`${chainNotes.feesPaidThrough} + 1` })
      .where(eq(chainNotes.tokenId, held.tokenId));
    try {
      const { data } = (await call("GET", "/admin/reconciliation", admin)).body;
      assert.deepEqual(data.differences, [{ tokenId: String(held.tokenId), account: null, field: "feesPaidThrough", chain: "1", mirror: "2", database: null }]);
      assert.equal(data.clean, false);
    } finally {
      await db()
        .update(chainNotes)
        .set({ feesPaidThrough: sql`${chainNotes.feesPaidThrough} - 1` })
        .where(eq(chainNotes.tokenId, held.tokenId));
    }
  });
});
