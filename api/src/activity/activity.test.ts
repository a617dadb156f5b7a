import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { encodeFunctionData } from "viem";
import { loanNoteAbi, noteVaultAbi } from "#domain/abis";
import { wireLoanActivitySchema, wireUserActivitySchema } from "#domain/wire/activity";
import { formatUsdAmount } from "#domain/money";
import { monthlyPayment, outstandingBalance, scheduleRows } from "#domain/schedule";
import { startIndexer, type Indexer } from "#indexer/index";
import { fund, makeUser, parPriceNow, sendAs, startLoanStack, type LoanStack, type TestUser } from "#testing/loanStack";

/**
 * The user's on-chain activity read from the mirror: a real chain, the real indexer, a loan approved through the
 * API, two installments repaid with permits, and the note sold to an investor in between.
 */
describe("Activity routes: transactions, dashboard summary and a loan's on-chain life from the mirror", () => {
  let stack: LoanStack;
  let indexer: Indexer;
  let admin: TestUser, borrower: TestUser, alice: TestUser, stranger: TestUser;
  let loanId = "";
  let tokenId = "";
  const USD = 1_000_000n;
  const principal = 12_000n * USD;
  const terms = { principal, rateBps: 1200, termMonths: 12 };
  const payment = monthlyPayment(principal, 1200, 12);
  /** The treasury's par listing after the first installment: the dirty price the chain quotes then. */
  let purchasePrice = "";

  const call = (method: string, path: string, user?: TestUser, body?: unknown) => stack.api.call(method, path, { token: user?.token, body });
  const signPermit = (user: TestUser, permit: any) =>
    user.wallet!.signTypedData({
      domain: permit.domain,
      types: permit.types,
      primaryType: "Permit",
      message: { ...permit.message, value: BigInt(permit.message.value), nonce: BigInt(permit.message.nonce), deadline: BigInt(permit.message.deadline) },
    });

  async function repay(installmentNumber: number) {
    const body = { amount: formatUsdAmount(payment), installmentNumber };
    const first = await call("PUT", `/loans/${loanId}/repayment`, borrower, body);
    assert.equal(first.status, 200, first.body?.message);
    const signature = await signPermit(borrower, first.body.data.permit);
    const second = await call("PUT", `/loans/${loanId}/repayment`, borrower, { ...body, signature, deadline: first.body.data.deadline });
    assert.equal(second.status, 200, second.body?.message);
    await sendAs(stack, borrower.wallet!, second.body.data.call);
  }

  before(async () => {
    stack = await startLoanStack();
    indexer = startIndexer({ db: stack.api.database.db, rpcUrl: stack.anvil.rpcUrl, deployment: stack.deployment, pollIntervalMs: 100 });
    [admin, borrower, alice, stranger] = await Promise.all([
      makeUser(stack.api, { admin: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
    ]);
    await fund(stack, borrower.wallet!.address, 5_000n * USD);
    await fund(stack, alice.wallet!.address, 50_000n * USD);
    const requested = await call("POST", "/loans/request", borrower, { amount: "12000", purpose: "business", interestRate: 12, termMonths: 12 });
    assert.equal(requested.status, 201, requested.body?.message);
    loanId = requested.body.data._id;
    tokenId = String(requested.body.data.loanNumber);
    const approved = await call("PUT", `/admin/loans/${loanId}/approve`, admin, {});
    assert.equal(approved.status, 200, approved.body?.message);
    await indexer.caughtUp();
    await repay(1);
    // The treasury's listing at par (a signature) survives the repayment: offered at the new par (the dirty price).
    await indexer.caughtUp();
    purchasePrice = formatUsdAmount(await parPriceNow(stack, tokenId));
    const offer = await call("POST", `/nfts/${tokenId}/buy`, alice, { expectedPrice: purchasePrice });
    assert.equal(offer.status, 200, offer.body?.message);
    const signature = await signPermit(alice, offer.body.data.permit);
    const buy = await call("POST", `/nfts/${tokenId}/buy`, alice, { expectedPrice: purchasePrice, signature, deadline: offer.body.data.deadline });
    assert.equal(buy.status, 200, buy.body?.message);
    await sendAs(stack, alice.wallet!, buy.body.data.call);
    await repay(2);
    await indexer.caughtUp();
  });

  after(async () => {
    await indexer?.stop();
    await stack?.close();
  });

  it("asks for sign-in", async () => {
    assert.equal((await call("GET", "/activity")).status, 401);
    assert.equal((await call("GET", "/activity/summary")).status, 401);
  });

  it("lists the borrower's disbursement and both repayments, newest first, with their transactions", async () => {
    const answer = await call("GET", "/activity", borrower);
    assert.equal(answer.status, 200);
    // The app parses this answer with the same schema: a mapper that drifts fails here, not in the browser.
    const { transactions, walletAddress } = wireUserActivitySchema.parse(answer.body.data);
    assert.equal(walletAddress, borrower.wallet!.address.toLowerCase());
    assert.deepEqual(
      transactions.map((t: any) => t.kind),
      ["repayment", "repayment", "loan_disbursement"],
    );
    assert.equal(transactions[2].amount, "12000");
    assert.equal(transactions[0].amount, formatUsdAmount(payment));
    assert.equal(transactions[0].loanId, loanId);
    assert.equal(transactions[0].to, alice.wallet!.address.toLowerCase(), "the second payment is credited to the note's new holder");
    for (const t of transactions) assert.match(t.txHash, /^0x[0-9a-f]{64}$/);
  });

  it("lists the investor's purchase and the repayment credited to her", async () => {
    const answer = await call("GET", "/activity", alice);
    assert.deepEqual(
      answer.body.data.transactions.map((t: any) => t.kind),
      ["repayment_received", "nft_purchase"],
    );
    assert.equal(answer.body.data.transactions[1].amount, purchasePrice, "bought at the par price left after the first installment");
  });

  it("answers the borrower's dashboard tiles and performance from the loans and the mirror", async () => {
    const { data } = await call("GET", "/activity/summary", borrower).then((a) => a.body);
    assert.equal(data.totalLoans, 1);
    assert.equal(data.activeLoans, 1);
    assert.equal(data.totalBorrowed, "12000");
    assert.equal(data.nftLoans, 1);
    assert.equal(data.notesHeld, 0);
    assert.equal(data.portfolioValue, "0");
    assert.deepEqual({ due: data.performance.installmentsDue, onTime: data.performance.installmentsOnTime, rate: data.performance.onTimeRate }, { due: 2, onTime: 2, rate: 100 });
    assert.equal(data.performance.totalRepaid, formatUsdAmount(payment * 2n));
    assert.equal(data.performance.interestEarned, "0", "the interest the borrower paid to the note's holders is theirs, not his");
    assert.equal(data.performance.repaymentsReceived, "0");
  });

  it("values the investor's note at its outstanding balance plus the repayment waiting, and counts its interest", async () => {
    const { data } = await call("GET", "/activity/summary", alice).then((a) => a.body);
    const outstanding = outstandingBalance({ ...terms, start: 0n }, payment * 2n);
    assert.equal(data.notesHeld, 1);
    assert.equal(data.portfolioValue, formatUsdAmount(outstanding + payment));
    assert.equal(data.performance.interestEarned, formatUsdAmount(scheduleRows({ ...terms, start: 0n })[1].interest));
    assert.equal(data.totalLoans, 0);
    assert.equal(data.performance.onTimeRate, null);
  });

  it("tells one loan's on-chain life: mint, funding, sale, repayments, and who holds the note now", async () => {
    const answer = await call("GET", `/activity/loans/${loanId}`, borrower);
    assert.equal(answer.status, 200);
    const data = wireLoanActivitySchema.parse(answer.body.data);
    assert.equal(data.tokenId, tokenId);
    assert.equal(data.holder, alice.wallet!.address.toLowerCase());
    assert.equal(data.burned, false);
    assert.equal(data.totalRepaid, formatUsdAmount(payment * 2n));
    const kinds = data.entries.map((e: any) => e.kind).sort();
    assert.deepEqual(kinds, ["loan_disbursement", "mint", "nft_sale", "repayment", "repayment"]);
  });

  it("tells a vault deposit and withdrawal of the note as such, not as plain transfers", async () => {
    const vault = stack.deployment.contracts.vault as `0x${string}`;
    await sendAs(stack, alice.wallet!, {
      to: stack.deployment.contracts.loanNote,
      data: encodeFunctionData({ abi: loanNoteAbi, functionName: "transferFrom", args: [alice.wallet!.address, vault, BigInt(tokenId)] }),
    });
    await sendAs(stack, alice.wallet!, { to: vault, data: encodeFunctionData({ abi: noteVaultAbi, functionName: "withdraw", args: [BigInt(tokenId), alice.wallet!.address] }) });
    await indexer.caughtUp();
    const { entries } = (await call("GET", `/activity/loans/${loanId}`, borrower)).body.data;
    const [withdrawn, deposited] = entries.filter((e: any) => e.kind.startsWith("vault_"));
    assert.equal(deposited.kind, "vault_deposit");
    assert.deepEqual([deposited.from, deposited.to], [alice.wallet!.address.toLowerCase(), vault.toLowerCase()]);
    assert.equal(withdrawn.kind, "vault_withdraw");
    assert.deepEqual([withdrawn.from, withdrawn.to], [vault.toLowerCase(), alice.wallet!.address.toLowerCase()]);
    assert.ok(!entries.some((e: any) => e.kind === "nft_transfer"), "no vault move is told as a plain transfer");
  });

  it("lists a wallet's own credit withdrawal and vault moves, and never another wallet's", async () => {
    await sendAs(stack, alice.wallet!, { to: stack.deployment.contracts.loanNote, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "withdrawCredits", args: [] }) });
    await indexer.caughtUp();
    const mine = (await call("GET", "/activity", alice)).body.data.transactions;
    assert.deepEqual(
      mine.map((t: any) => t.kind),
      ["withdrawal", "vault_withdraw", "vault_deposit", "repayment_received", "nft_purchase"],
    );
    assert.deepEqual([mine[0].amount, mine[0].to], [formatUsdAmount(payment), alice.wallet!.address.toLowerCase()]);
    const kinds = async (user: TestUser) => (await call("GET", "/activity", user)).body.data.transactions.map((t: any) => t.kind);
    assert.deepEqual(await kinds(borrower), ["repayment", "repayment", "loan_disbursement"], "the borrower's note moved through the vault, but by Alice");
    assert.deepEqual(await kinds(stranger), []);
  });

  it("answers another user's loan, and a malformed id, as not found", async () => {
    assert.equal((await call("GET", `/activity/loans/${loanId}`, stranger)).status, 404);
    assert.equal((await call("GET", "/activity/loans/not-a-uuid", borrower)).status, 404);
  });
});
