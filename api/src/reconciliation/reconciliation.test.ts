import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq, sql } from "drizzle-orm";
import { encodeFunctionData, maxUint256, type Address, type Hex } from "viem";
import { loanNoteAbi, noteMarketplaceAbi, testDollarAbi } from "#domain/abis";
import { formatUsdAmount, parseUsd } from "#domain/money";
import { wireReconciliationSchema } from "#domain/wire/reconciliation";
import { chainNotes, loans } from "#db/schema";
import { refinanceOnChain } from "#testing/refinance";
import { displayUsd } from "#domain/money";
import { REFINANCED_ID_OFFSET } from "#domain/noteIds";
import { fund, makeUser, notificationsOf, parPriceNow, sendAs, startLoanStack, type LoanStack, type TestUser, buyByPermit } from "#testing/loanStack";

/**
 * The reconciliation against a real chain and the real indexer: loans approved by the API, a note sold by the
 * treasury, repayments to the treasury and to an investor, the treasury's credits withdrawn. The clean report's
 * figures are checked against what the test itself sent; planted differences must come back with their note, field
 * and the three values.
 */
describe("GET /admin/reconciliation", () => {
  const USD = 1_000_000n;
  let stack: LoanStack;
  let admin: TestUser, borrower: TestUser, alice: TestUser;
  const notes: bigint[] = [];
  const db = () => stack.api.database.db;
  const call = (method: string, path: string, user?: TestUser, body?: unknown) => stack.api.call(method, path, { token: user?.token, body });
  const contracts = () => stack.deployment.contracts as Record<"loanNote" | "marketplace" | "stablecoin", Address>;
  const treasury = () => stack.deployment.treasury.toLowerCase() as Address;
  const synced = () => stack.indexer!.caughtUp();
  const report = async () => {
    await synced();
    const answer = await call("GET", "/admin/reconciliation", admin);
    assert.equal(answer.status, 200, answer.body?.message);
    // The documented schema must accept the real answer (the OpenAPI test has no chain to ask).
    wireReconciliationSchema.parse(answer.body.data);
    return { message: answer.body.message as string, data: answer.body.data };
  };
  const line = (data: any, category: string) => data.treasury.lines.find((l: any) => l.category === category);

  async function approve(amount: string): Promise<bigint> {
    const requested = await call("POST", "/loans/request", borrower, { amount, interestRate: 9, termMonths: 12, purpose: "business" });
    assert.equal(requested.status, 201, requested.body?.message);
    const approved = await call("PUT", `/admin/loans/${requested.body.data._id}/approve`, admin, {});
    assert.equal(approved.status, 200, approved.body?.message);
    return BigInt(requested.body.data.loanNumber);
  }

  async function repay(tokenId: bigint, amount: bigint): Promise<Hex> {
    return sendAs(stack, borrower.wallet!, { to: contracts().loanNote, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "repay", args: [tokenId, amount] }) });
  }

  const buyAs = async (user: TestUser, tokenId: bigint): Promise<Hex> => buyByPermit(stack, user, tokenId, formatUsdAmount(await parPriceNow(stack, tokenId)));

  before(async () => {
    stack = await startLoanStack({ indexer: true });
    [admin, borrower, alice] = await Promise.all([
      makeUser(stack.api, { admin: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
    ]);
    await fund(stack, borrower.wallet!.address, 10_000n * USD);
    await fund(stack, alice.wallet!.address, 50_000n * USD);
    notes.push(await approve("3000"), await approve("2000"), await approve("1500.25"));
    await synced();
    await buyAs(alice, notes[0]!);
    await sendAs(stack, borrower.wallet!, { to: contracts().stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [contracts().loanNote, maxUint256] }) });
    await repay(notes[0]!, 123_450_000n); // credited to alice
    await repay(notes[1]!, 200_000_001n); // credited to the treasury
    await repay(notes[2]!, 1n); // credited to the treasury, left unwithdrawn
    await synced();
    const withdrawn = await call("POST", "/admin/treasury/withdraw", admin);
    assert.equal(withdrawn.status, 200, withdrawn.body?.message);
    await repay(notes[1]!, 7n); // credited after the withdrawal: owed at the report's block
  });

  after(async () => {
    await stack?.close();
  });

  it("is clean after originations, a sale and repayments, and the treasury's lines add up to its balance exactly", async () => {
    const { message, data } = await report();
    assert.deepEqual(data.differences, []);
    assert.equal(data.clean, true);
    assert.equal(message, `Chain, mirror and database agree at block ${data.blockNumber}`);
    assert.equal(data.notesCompared, 3);

    // Every figure from the chain itself, not from the report's own code: the receipts' logs and balanceOf.
    const blockNumber = BigInt(data.blockNumber);
    const range = { fromBlock: BigInt(stack.deployment.deployBlock), toBlock: blockNumber } as const;
    const [fill] = await stack.chain.getContractEvents({ address: contracts().marketplace, abi: noteMarketplaceAbi, eventName: "OrderFilled", ...range });
    const { price, fee } = fill!.args as { price: bigint; fee: bigint };
    assert.ok(fee > 0n, "the sale paid a fee, so the fee line is exercised");
    const balance = (block: bigint) => stack.chain.readContract({ address: contracts().stablecoin, abi: testDollarAbi, functionName: "balanceOf", args: [treasury()], blockNumber: block });
    const closing = await balance(blockNumber);
    const principals = (3000n + 2000n + 1500n) * USD + 250_000n;
    const withdrawnCredits = 200_000_001n + 1n;

    assert.equal(line(data, "principalLent").outflow, formatUsdAmount(principals));
    assert.equal(line(data, "principalLent").transfers, 3);
    assert.equal(line(data, "saleProceeds").inflow, formatUsdAmount(price - fee));
    assert.equal(line(data, "fees").inflow, formatUsdAmount(fee), "the local deploy makes the treasury the fee recipient");
    assert.equal(line(data, "creditsWithdrawn").inflow, formatUsdAmount(withdrawnCredits));
    assert.equal(line(data, "unexplained").transfers, 0);
    const funding = parseUsd(line(data, "funding").inflow);
    assert.ok(funding > 0n, "the deploy's mint to the treasury is its funding");
    assert.equal(data.treasury.closingBalance, formatUsdAmount(closing));
    assert.equal(closing, funding + price - fee + fee + withdrawnCredits - principals, "the balance is exactly funding + proceeds + fees + credits − principal");
    assert.equal(data.treasury.inflows, formatUsdAmount(funding + price + withdrawnCredits));
    assert.equal(data.treasury.outflows, formatUsdAmount(principals));
    assert.equal(data.treasury.balances, true);
    assert.deepEqual(data.treasury.unexplained, []);
    assert.deepEqual(data.treasury.unfundedOriginations, []);
    assert.deepEqual(data.treasury.credits, { credited: formatUsdAmount(200_000_001n + 1n + 7n), lateFees: "0", withdrawn: formatUsdAmount(withdrawnCredits), owed: "0.000007", balances: true });
  });

  it("lists a planted difference in the mirror with its note, field and the three values", async () => {
    const tokenId = notes[1]!;
    await db()
      .update(chainNotes)
      .set({ totalRepaid: sql`${chainNotes.totalRepaid} + 1` })
      .where(eq(chainNotes.tokenId, tokenId));
    try {
      const { message, data } = await report();
      assert.deepEqual(data.differences, [{ tokenId: String(tokenId), account: null, field: "repaid", chain: "200.000008", mirror: "200.000009", database: null }]);
      assert.equal(data.clean, false);
      assert.equal(message, `Found at block ${data.blockNumber}: 1 difference`);
    } finally {
      await db()
        .update(chainNotes)
        .set({ totalRepaid: sql`${chainNotes.totalRepaid} - 1` })
        .where(eq(chainNotes.tokenId, tokenId));
    }
  });

  it("lists a planted difference in the loans table with its note, field and the three values", async () => {
    const tokenId = notes[2]!;
    const where = eq(loans.loanNumber, tokenId);
    await db().update(loans).set({ principal: 1_500_000_000n, status: "completed" }).where(where);
    try {
      const { data } = await report();
      assert.deepEqual(
        data.differences.map((d: any) => [d.tokenId, d.field, d.chain, d.mirror, d.database]),
        [
          [String(tokenId), "principal", "1500.25", "1500.25", "1500"],
          [String(tokenId), "status", "active", "active", "completed"],
        ],
      );
    } finally {
      await db().update(loans).set({ principal: 1_500_250_000n, status: "active" }).where(where);
    }
    assert.equal((await report()).data.clean, true, "restored, it is clean again");
  });

  it("counts a loan whose mint failed, with no note anywhere, as no difference", async () => {
    const requested = await call("POST", "/loans/request", borrower, { amount: "1900", interestRate: 9, termMonths: 12, purpose: "business" });
    assert.equal(requested.status, 201, requested.body?.message);
    await db().update(loans).set({ status: "approved", mintStatus: "failed", principal: 1_900_000_000n, mintError: "planted" }).where(eq(loans.id, requested.body.data._id));
    const { data } = await report();
    assert.deepEqual(data.differences, []);
    assert.equal(data.notesCompared, 4, "it was compared, and found to claim no note");
    // Claiming the note it never got is a difference, in the loans table's column.
    await db()
      .update(loans)
      .set({ mintStatus: "minted", nftTokenId: String(requested.body.data.loanNumber) })
      .where(eq(loans.id, requested.body.data._id));
    try {
      const id = String(requested.body.data.loanNumber);
      const found = (await report()).data.differences.filter((d: any) => d.tokenId === id).map((d: any) => [d.field, d.chain, d.mirror, d.database]);
      assert.deepEqual(found, [
        ["tokenId", "missing", "missing", id],
        ["mintStatus", "missing", "missing", "minted"],
        ["principal", "missing", "missing", "1900"],
        ["status", "missing", "missing", "approved"],
      ]);
    } finally {
      await db().update(loans).set({ mintStatus: "failed", nftTokenId: null }).where(eq(loans.id, requested.body.data._id));
    }
  });

  it("is clean after a refinance: the old loan completed as refinanced, the new note's loan active for the same borrower", async () => {
    const tokenId = notes[2]!;
    const { hash, newTokenId } = await refinanceOnChain(stack, alice.wallet!, borrower.wallet!, tokenId, 2000n * USD);
    const { data } = await report();
    assert.deepEqual(data.differences, []);
    assert.equal(data.clean, true);

    const [old] = await db().select().from(loans).where(eq(loans.loanNumber, tokenId));
    const [fresh] = await db().select().from(loans).where(eq(loans.loanNumber, newTokenId));
    assert.ok(old && fresh, "both loans are in the table");
    assert.deepEqual([old.status, old.refinancedTo], ["completed", fresh.id]);
    assert.deepEqual(
      [fresh.status, fresh.mintStatus, fresh.userId, fresh.principal, fresh.rateBps, fresh.termMonths, fresh.nftTokenId, fresh.refinancedFrom],
      ["active", "minted", old.userId, 2000n * USD, 800, 12, String(newTokenId), old.id],
    );

    const before = await call("GET", `/loans/${old.id}`, borrower);
    assert.equal(before.status, 200, before.body?.message);
    assert.equal(before.body.data.refinancedTo, fresh.id);
    assert.ok(
      before.body.data.timeline.some((entry: any) => entry.action === "refinanced" && entry.txHash === hash),
      "the old loan's timeline shows the refinance",
    );
    const after = await call("GET", `/loans/${fresh.id}`, borrower);
    assert.equal(after.status, 200, after.body?.message);
    assert.deepEqual([after.body.data.status, after.body.data.loanNumber, after.body.data.nftTokenId, after.body.data.refinancedFrom], ["active", Number(tokenId), String(newTokenId), old.id]);
  });

  it("tells each side of a refinance in its words: the borrower, the old holder paid off, the new lender; and stays clean", async () => {
    const tokenId = notes[0]!;
    const carol = await makeUser(stack.api, { kyc: "approved", wallet: true });
    await fund(stack, carol.wallet!.address, 5_000n * USD);
    const { hash, newTokenId } = await refinanceOnChain(stack, carol.wallet!, borrower.wallet!, tokenId, 3000n * USD);
    const { data } = await report();
    assert.deepEqual(data.differences, []);
    assert.equal(data.clean, true);
    const [fresh] = await db().select().from(loans).where(eq(loans.loanNumber, newTokenId));
    const refinanceNotices = async (user: TestUser) => (await notificationsOf(stack.api, user.id)).filter((n) => n.type === "loan_refinanced").map((n) => [n.title, n.message, n.link]);
    const [payoffLog] = await stack.chain.getContractEvents({ address: contracts().loanNote, abi: loanNoteAbi, eventName: "LoanRefinanced", args: { tokenId }, fromBlock: 0n });
    const payoff = displayUsd((payoffLog!.args as { payoff: bigint }).payoff);
    assert.equal(payoffLog!.transactionHash, hash);
    const ofThisLoan = (await refinanceNotices(borrower)).filter(([, message]) => message?.startsWith(`Loan #${tokenId} is`));
    const completions = (await notificationsOf(stack.api, borrower.id)).filter((n) => n.type === "loan_status" && n.message.startsWith(`Loan #${tokenId} `));
    assert.deepEqual(completions, [], "a refinance is not told as a repayment in full");
    assert.deepEqual(ofThisLoan, [["Loan refinanced", `Loan #${tokenId} is refinanced: paid off with ${payoff}, your new loan is $3,000.00.`, `/loans/${fresh!.id}`]]);
    // Alice lent the earlier refinance of notes[2], and held this note.
    const earlier = notes[2]! + REFINANCED_ID_OFFSET;
    assert.deepEqual((await refinanceNotices(alice)).sort(), [
      ["Note paid off", `Note #${tokenId} was refinanced and paid off in full: ${payoff} credited to you.`, "/portfolio"],
      ["Refinance accepted", `Your refinance offer was accepted: note #${earlier} for $2,000.00 is yours.`, `/nft/${earlier}`],
    ]);
    assert.deepEqual(await refinanceNotices(carol), [["Refinance accepted", `Your refinance offer was accepted: note #${newTokenId} for $3,000.00 is yours.`, `/nft/${newTokenId}`]]);
  });

  it("answers 403 to a non-admin and 401 to no one", async () => {
    const denied = await call("GET", "/admin/reconciliation", borrower);
    assert.equal(denied.status, 403);
    assert.equal(denied.body.data, null);
    assert.equal((await call("GET", "/admin/reconciliation")).status, 401);
  });

  it("lists a stablecoin transfer into the treasury that no contract event explains, with its transaction; the balance still adds up", async () => {
    const hash = await sendAs(stack, alice.wallet!, { to: contracts().stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "transfer", args: [treasury(), 5n * USD] }) });
    const { data } = await report();
    assert.deepEqual(
      data.treasury.unexplained.map((u: any) => [u.txHash, u.direction, u.from, u.amount]),
      [[hash, "in", alice.wallet!.address.toLowerCase(), "5"]],
    );
    assert.equal(line(data, "unexplained").inflow, "5");
    assert.equal(data.treasury.balances, true);
    assert.equal(data.clean, false);
  });
});
