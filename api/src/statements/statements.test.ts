import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { encodeFunctionData, parseEventLogs, type Address } from "viem";
import { loanNoteAbi, noteMarketplaceAbi, testDollarAbi } from "#domain/abis";
import { formatUsdAmount, parseUsd } from "#domain/money";
import { STATEMENT_MESSAGES } from "#domain/schemas/statements";
import { wireLoanStatementSchema, wirePortfolioStatementSchema } from "#domain/wire/statement";
import { monthlyPayment, scheduleRows } from "#domain/schedule";
import { startIndexer, type Indexer } from "#indexer/index";
import { fund, listOnChain, makeUser, parPriceNow, sendAs, startLoanStack, type LoanStack, type TestUser } from "#testing/loanStack";

/**
 * Statements against what the chain logged: a real chain, the real indexer, a loan approved through the API, two
 * installments repaid, the note bought by Alice from the treasury's signed par listing and sold on by her through
 * an on-chain listing to Bob. Every figure is compared with the logs of the transactions, not with the mirror.
 */
describe("Statements: a loan's and an investor's, equal to the chain's logs", () => {
  let stack: LoanStack;
  let indexer: Indexer;
  let admin: TestUser, borrower: TestUser, alice: TestUser, bob: TestUser, stranger: TestUser;
  let loanId = "";
  let tokenId = "";
  const USD = 1_000_000n;
  const principal = 12_000n * USD;
  const payment = monthlyPayment(principal, 1200, 12);
  const repayHashes: `0x${string}`[] = [];
  let buyHash: `0x${string}`;
  let sellHash: `0x${string}`;
  const today = new Date().toISOString().slice(0, 10);
  const wide = `from=2020-01-01&to=${new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10)}`;

  const call = (method: string, path: string, user?: TestUser, body?: unknown) => stack.api.call(method, path, { token: user?.token, body });
  const signPermit = (user: TestUser, permit: any) =>
    user.wallet!.signTypedData({
      domain: permit.domain,
      types: permit.types,
      primaryType: "Permit",
      message: { ...permit.message, value: BigInt(permit.message.value), nonce: BigInt(permit.message.nonce), deadline: BigInt(permit.message.deadline) },
    });
  const receipt = (hash: `0x${string}`) => stack.chain.waitForTransactionReceipt({ hash });

  async function repay(installmentNumber: number) {
    const body = { amount: formatUsdAmount(payment), installmentNumber };
    const first = await call("PUT", `/loans/${loanId}/repayment`, borrower, body);
    assert.equal(first.status, 200, first.body?.message);
    const signature = await signPermit(borrower, first.body.data.permit);
    const second = await call("PUT", `/loans/${loanId}/repayment`, borrower, { ...body, signature, deadline: first.body.data.deadline });
    assert.equal(second.status, 200, second.body?.message);
    repayHashes.push(await sendAs(stack, borrower.wallet!, second.body.data.call));
  }

  before(async () => {
    stack = await startLoanStack();
    indexer = startIndexer({ db: stack.api.database.db, rpcUrl: stack.anvil.rpcUrl, deployment: stack.deployment, pollIntervalMs: 100 });
    [admin, borrower, alice, bob, stranger] = await Promise.all([
      makeUser(stack.api, { admin: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
    ]);
    await fund(stack, borrower.wallet!.address, 5_000n * USD);
    await fund(stack, alice.wallet!.address, 50_000n * USD);
    await fund(stack, bob.wallet!.address, 50_000n * USD);
    const requested = await call("POST", "/loans/request", borrower, { amount: "12000", purpose: "business", interestRate: 12, termMonths: 12 });
    assert.equal(requested.status, 201, requested.body?.message);
    loanId = requested.body.data._id;
    tokenId = String(requested.body.data.loanNumber);
    const approved = await call("PUT", `/admin/loans/${loanId}/approve`, admin, {});
    assert.equal(approved.status, 200, approved.body?.message);
    await indexer.caughtUp();
    await repay(1);
    await indexer.caughtUp();
    const price = formatUsdAmount(await parPriceNow(stack, tokenId));
    const offer = await call("POST", `/nfts/${tokenId}/buy`, alice, { expectedPrice: price });
    assert.equal(offer.status, 200, offer.body?.message);
    const signature = await signPermit(alice, offer.body.data.permit);
    const buy = await call("POST", `/nfts/${tokenId}/buy`, alice, { expectedPrice: price, signature, deadline: offer.body.data.deadline });
    assert.equal(buy.status, 200, buy.body?.message);
    buyHash = await sendAs(stack, alice.wallet!, buy.body.data.call);
    await repay(2);
    // Alice sells the note on through an on-chain listing; Bob buys it with the marketplace's own `buy`.
    const resale = 11_000n * USD;
    await listOnChain(stack, alice.wallet!, tokenId, resale);
    const marketplace = stack.deployment.contracts.marketplace as Address;
    await sendAs(stack, bob.wallet!, { to: stack.deployment.contracts.stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [marketplace, resale] }) });
    sellHash = await sendAs(stack, bob.wallet!, { to: marketplace, data: encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "buy", args: [BigInt(tokenId), resale] }) });
    await repay(3);
    await indexer.caughtUp();
  });

  after(async () => {
    await indexer?.stop();
    await stack?.close();
  });

  it("asks for sign-in", async () => {
    assert.equal((await call("GET", `/loans/${loanId}/statement`)).status, 401);
    assert.equal((await call("GET", `/portfolio/statement?${wide}`)).status, 401);
  });

  it("states the loan: the schedule, each payment as logged, and totals that equal the note's repaid total on-chain", async () => {
    const answer = await call("GET", `/loans/${loanId}/statement`, borrower);
    assert.equal(answer.status, 200, answer.body?.message);
    const s = wireLoanStatementSchema.parse(answer.body.data);
    const rows = scheduleRows({ principal, rateBps: 1200, termMonths: 12, start: 0n });
    assert.equal(s.schedule.length, 12);
    assert.deepEqual(
      s.schedule.map((r) => r.payment),
      rows.map((r) => formatUsdAmount(r.payment)),
    );
    assert.deepEqual(s.fees, []);

    const logs = (await Promise.all(repayHashes.map(receipt))).flatMap((r) => parseEventLogs({ abi: loanNoteAbi, eventName: "Repaid", logs: r.logs }));
    assert.equal(logs.length, 3);
    assert.deepEqual(
      s.payments.map((p) => [p.txHash, p.amount]),
      logs.map((l) => [l.transactionHash, formatUsdAmount(l.args.amount)]),
    );
    const onChain = await stack.chain.readContract({ address: stack.deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "loanOf", args: [BigInt(tokenId)] });
    const paid = s.payments.reduce((sum, p) => sum + parseUsd(p.amount), 0n);
    assert.equal(paid, onChain.repaid, "the payments listed sum to the note's repaid total on-chain");
    assert.equal(s.totals.paid, formatUsdAmount(onChain.repaid));
    assert.equal(parseUsd(s.totals.interestPaid) + parseUsd(s.totals.principalPaid), onChain.repaid);
    assert.equal(s.totals.interestPaid, formatUsdAmount(rows[0].interest + rows[1].interest + rows[2].interest));
    assert.equal(s.payments[2].balanceAfter, formatUsdAmount(rows[2].balance));
    assert.equal(s.totals.outstanding, formatUsdAmount(rows[2].balance));
    const state = await stack.chain.readContract({ address: stack.deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "noteStateOf", args: [BigInt(tokenId)] });
    assert.equal(s.totals.payoff, formatUsdAmount(state.outstanding + state.interest), "payoff now is what the contract would settle for");
    for (const p of s.payments) assert.ok(p.time && !Number.isNaN(Date.parse(p.time)), "each payment carries its block time");
  });

  it("lets an admin read a loan's statement, and answers another user as if the loan did not exist", async () => {
    assert.equal((await call("GET", `/loans/${loanId}/statement`, admin)).status, 200);
    const foreign = await call("GET", `/loans/${loanId}/statement`, stranger);
    assert.equal(foreign.status, 404);
    assert.equal(JSON.stringify(foreign.body).includes(tokenId + '"'), false);
    assert.equal((await call("GET", "/loans/not-a-uuid/statement", borrower)).status, 404);
  });

  it("states Alice's trades with the price and fee of the OrderFilled and Sold events", async () => {
    const answer = await call("GET", `/portfolio/statement?${wide}`, alice);
    assert.equal(answer.status, 200, answer.body?.message);
    const s = wirePortfolioStatementSchema.parse(answer.body.data);
    const [filled] = parseEventLogs({ abi: noteMarketplaceAbi, eventName: "OrderFilled", logs: (await receipt(buyHash)).logs });
    const [sold] = parseEventLogs({ abi: noteMarketplaceAbi, eventName: "Sold", logs: (await receipt(sellHash)).logs });
    const [buy, sell] = s.trades;
    assert.deepEqual([buy.side, buy.txHash, buy.price, buy.fee, buy.net], ["buy", buyHash, formatUsdAmount(filled.args.price), formatUsdAmount(filled.args.fee), formatUsdAmount(filled.args.price)]);
    assert.deepEqual([sell.side, sell.txHash, sell.price, sell.fee], ["sell", sellHash, formatUsdAmount(sold.args.price), formatUsdAmount(sold.args.fee)]);
    assert.ok(sold.args.fee > 0n, "the marketplace charges a fee, so the test would see one dropped");
    assert.equal(sell.net, formatUsdAmount(sold.args.price - sold.args.fee));

    // Alice received the second installment only: the first went to the treasury, the third to Bob.
    const repaid = parseEventLogs({ abi: loanNoteAbi, eventName: "Repaid", logs: (await receipt(repayHashes[1])).logs })[0];
    assert.deepEqual(
      s.receipts.map((r) => [r.txHash, r.amount, r.viaVault]),
      [[repayHashes[1], formatUsdAmount(repaid.args.amount), false]],
    );

    const [note] = s.notes;
    assert.equal(note.position, "sold");
    const realised = repaid.args.amount + sold.args.price - sold.args.fee - filled.args.price;
    assert.equal(note.realisedReturn, formatUsdAmount(realised));
    assert.equal(s.totals.realisedReturn, formatUsdAmount(realised));
    assert.equal(s.totals.fees, formatUsdAmount(sold.args.fee));
    assert.equal(s.totals.notesHeld, 0);
    // Bought and sold within minutes: an annualised rate over so short a span is no figure, so none is given.
    assert.deepEqual([note.irr, s.totals.xirr], [null, null]);
  });

  it("values Bob's held note at the period's end and expects its remaining installments", async () => {
    const s = wirePortfolioStatementSchema.parse((await call("GET", `/portfolio/statement?from=2020-01-01&to=${today}`, bob)).body.data);
    const rows = scheduleRows({ principal, rateBps: 1200, termMonths: 12, start: 0n });
    assert.equal(s.totals.notesHeld, 1);
    assert.equal(s.totals.outstandingPrincipal, formatUsdAmount(rows[2].balance));
    const remaining = rows.slice(3).reduce((sum, r) => sum + r.payment, 0n);
    assert.equal(s.notes[0].expectedReturn, formatUsdAmount(payment + remaining - 11_000n * USD));
    assert.equal(s.totals.received, formatUsdAmount(payment));
  });

  it("keeps to the period: a period before any trade is empty", async () => {
    const s = wirePortfolioStatementSchema.parse((await call("GET", "/portfolio/statement?from=2001-01-01&to=2001-12-31", alice)).body.data);
    assert.deepEqual([s.trades, s.receipts, s.withdrawals, s.notes], [[], [], [], []]);
    assert.equal(s.totals.xirr, null);
  });

  it("refuses a bad period with a message that says why", async () => {
    const backwards = await call("GET", "/portfolio/statement?from=2025-03-02&to=2025-03-01", alice);
    assert.deepEqual([backwards.status, backwards.body.message], [400, STATEMENT_MESSAGES.order]);
    const notADate = await call("GET", "/portfolio/statement?from=2025-02-30&to=2025-03-01", alice);
    assert.deepEqual([notADate.status, notADate.body.message], [400, STATEMENT_MESSAGES.date]);
    assert.equal((await call("GET", "/portfolio/statement", alice)).status, 400);
  });

  it("gives each user only their own wallet's statement", async () => {
    const s = wirePortfolioStatementSchema.parse((await call("GET", `/portfolio/statement?${wide}`, stranger)).body.data);
    assert.equal(s.walletAddress, stranger.wallet!.address.toLowerCase());
    assert.deepEqual([s.trades, s.receipts, s.notes], [[], [], []]);
  });
});
