import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { encodeFunctionData, maxUint256, type Address } from "viem";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { formatUsdAmount } from "#domain/money";
import { parPrice } from "#domain/orders";
import { startIndexer, type Indexer } from "#indexer/index";
import { fund, makeUser, publishOrder, sendAs, startLoanStack, type LoanStack, type TestUser } from "#testing/loanStack";
import { NFT_ANSWERS } from "./texts";
import { TREASURY_ANSWERS } from "../treasury/texts";

/**
 * A late note is never sold as a current one, and par is what settles the note: the attacks that a par price on the
 * principal alone allowed, tried through the API. The borrower who paid nothing buying their own overdue note from the
 * treasury's standing par listing at principal (escaping every cent of interest), and a matured, unpaid note sold
 * into an offer on any matching note. Real Postgres, a private anvil with the contracts, the real indexer.
 */
describe("a late note is not sold as a current one, and par is the payoff", () => {
  const USD = 1_000_000n;
  const DAY = 86_400;
  let stack: LoanStack;
  let indexer: Indexer;
  let admin: TestUser, borrower: TestUser, investor: TestUser;
  const call = (method: string, path: string, user?: TestUser, body?: unknown) => stack.api.call(method, path, { token: user?.token, body });
  const contracts = () => stack.deployment.contracts as Record<"loanNote" | "marketplace" | "stablecoin", Address>;
  const read = <T>(functionName: string, args: unknown[]) => stack.chain.readContract({ address: contracts().loanNote, abi: loanNoteAbi, functionName, args } as never) as Promise<T>;

  async function synced() {
    await indexer.caughtUp();
    await stack.api.server.outbox!.deliverNow();
  }

  async function approve(amount: string, termMonths: number): Promise<bigint> {
    const requested = await call("POST", "/loans/request", borrower, { amount, interestRate: 15, termMonths, purpose: "business" });
    assert.equal(requested.status, 201, requested.body?.message);
    const approved = await call("PUT", `/admin/loans/${requested.body.data._id}/approve`, admin, {});
    assert.equal(approved.status, 200, approved.body?.message);
    return BigInt(requested.body.data.loanNumber);
  }

  async function travel(seconds: number) {
    await stack.rpc("evm_increaseTime", [seconds]);
    await stack.rpc("evm_mine", []);
  }

  async function repay(tokenId: bigint, amount: bigint) {
    await sendAs(stack, borrower.wallet!, { to: contracts().stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [contracts().loanNote, maxUint256] }) });
    await sendAs(stack, borrower.wallet!, { to: contracts().loanNote, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "repay", args: [tokenId, amount] }) });
  }

  const noteState = (tokenId: bigint) => read<{ outstanding: bigint; interest: bigint; daysPastDue: bigint }>("noteStateOf", [tokenId]);
  const payoffNow = (tokenId: bigint) => read<bigint>("payoffAmount", [tokenId]);

  before(async () => {
    stack = await startLoanStack();
    indexer = startIndexer({ db: stack.api.database.db, rpcUrl: stack.anvil.rpcUrl, deployment: stack.deployment, pollIntervalMs: 50 });
    [admin, borrower, investor] = await Promise.all([
      makeUser(stack.api, { admin: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
    ]);
    await fund(stack, borrower.wallet!.address, 20_000n * USD);
    await fund(stack, investor.wallet!.address, 50_000n * USD);
    // The investor's offers are funded: the book shows only offers a fill could pay.
    await sendAs(stack, investor.wallet!, { to: contracts().stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [contracts().marketplace, maxUint256] }) });
  });

  after(async () => {
    await indexer?.stop();
    await stack?.close();
  });

  it("refuses the borrower who paid nothing the treasury's par listing of their overdue note, and quotes the payoff once they are current", async () => {
    const tokenId = await approve("5000", 12);
    await synced();
    await travel(75 * DAY); // two installments missed, nothing paid
    const escape = await call("POST", `/nfts/${tokenId}/buy`, borrower, { expectedPrice: "5000" });
    const { daysPastDue } = await noteState(tokenId);
    assert.deepEqual([escape.status, escape.body.message], [409, NFT_ANSWERS.late(Number(daysPastDue))]);
    assert.equal(escape.body.data ?? null, null, "no permit, no call: nothing to sign");

    const book = (await call("GET", `/orders/note/${tokenId}`)).body.data;
    assert.deepEqual(book.listings, [], "the book shows no listing of a late note");
    assert.equal(book.late.length, 1, "it keeps the treasury's listing aside, marked with why");
    assert.equal(book.late[0].status, "late");

    const relist = await call("PUT", `/admin/treasury/notes/${tokenId}/par`, admin);
    assert.deepEqual([relist.status, relist.body.message], [409, TREASURY_ANSWERS.late(Number(daysPastDue))], "the treasury never lists a late note");

    const record = (await call("GET", `/nfts/${tokenId}`, investor)).body.data;
    assert.equal(record.servicing.status, "delinquent");
    assert.equal(record.servicing.daysPastDue, Number(daysPastDue));
    assert.equal(record.performance, "poor");

    await travel(11 * 30 * DAY); // past maturity the treasury's listing has run its course
    const later = await call("POST", `/nfts/${tokenId}/buy`, borrower, { expectedPrice: "5000" });
    assert.deepEqual([later.status, later.body.message], [409, NFT_ANSWERS.notListed]);
  });

  it("prices a 100%-of-par buy of a current note at exactly what would settle it, interest included", async () => {
    const tokenId = await approve("3000", 12);
    await synced();
    await travel(45 * DAY); // the first installment is 15 days past due
    assert.equal((await call("POST", `/nfts/${tokenId}/buy`, investor, { expectedPrice: "3000" })).status, 409);
    const { daysPastDue } = await noteState(tokenId);
    const due = (await call("GET", `/nfts/${tokenId}`, investor)).body.data.servicing;
    assert.deepEqual([due.status, due.daysPastDue], ["late", Number(daysPastDue)]);
    await repay(tokenId, await read<bigint>("amountDueNow", [tokenId]));
    await synced();

    const cured = (await call("GET", `/nfts/${tokenId}`, investor)).body.data;
    assert.equal(cured.servicing.status, "current", "paying what is past due cures the loan");
    const state = await noteState(tokenId);
    const settles = await payoffNow(tokenId);
    assert.equal(state.outstanding + state.interest, settles);
    assert.ok(state.interest > 0n, "half a period of interest has accrued since the payment");
    const quoted = await call("POST", `/nfts/${tokenId}/buy`, investor, { expectedPrice: formatUsdAmount(settles) });
    assert.equal(quoted.status, 200, quoted.body?.message);
    assert.equal(quoted.body.data.price, formatUsdAmount(parPrice({ principal: state.outstanding, interest: state.interest }, 10_000n)));
    assert.equal(quoted.body.data.price, formatUsdAmount(settles), "100% of par is the payoff, not the principal");
  });

  it("never shows a matured, unpaid note as a fit for an offer on any matching note, and offers default to current notes", async () => {
    const tokenId = await approve("2000", 1);
    await synced();
    const asked = await call("POST", "/orders/typed-data", investor, { kind: "matchingOffer", priceKind: "par", parBps: 9_700, budget: "10000" });
    assert.equal(asked.status, 200, asked.body?.message);
    assert.equal(asked.body.data.typedData.message.maxDaysPastDue, "0", "current notes only unless the signer says otherwise");
    assert.equal(asked.body.data.typedData.message.minTermLeft, "1", "a matured note never matches by accident");
    const { hash } = await publishOrder(stack.api, investor, { kind: "matchingOffer", priceKind: "par", parBps: 9_700, budget: "10000" });
    assert.deepEqual(
      (await call("GET", `/orders/note/${tokenId}`)).body.data.matchingOffers.map((o: { hash: string }) => o.hash),
      [hash],
    );

    await travel(31 * DAY); // past maturity, the only installment unpaid
    const book = (await call("GET", `/orders/note/${tokenId}`)).body.data;
    assert.deepEqual(book.matchingOffers, [], "a matured, unpaid note fits no offer signed for current notes");
    assert.equal(book.bestOffer, null);
    const market = (await call("GET", "/nfts/marketplace/browse?limit=100", investor)).body.data.nfts.find((n: { tokenId: string }) => n.tokenId === tokenId.toString());
    assert.equal(market?.bestOffer ?? null, null, "nor does the marketplace show it one");
  });

  it("takes an offer that accepts late notes only when its signer signed how late", async () => {
    const tokenId = await approve("1000", 6);
    await synced();
    await travel(40 * DAY);
    const { hash } = await publishOrder(stack.api, investor, { kind: "offer", tokenId: tokenId.toString(), priceKind: "par", parBps: 8_000, maxDaysPastDue: 30 });
    const book = (await call("GET", `/orders/note/${tokenId}`)).body.data;
    assert.deepEqual(
      book.offers.map((o: { hash: string; maxDaysPastDue: number }) => [o.hash, o.maxDaysPastDue]),
      [[hash, 30]],
    );
    const refused = await call("POST", "/orders/typed-data", investor, { kind: "offer", tokenId: tokenId.toString(), parBps: 8_000, maxDaysPastDue: 5000 });
    assert.equal(refused.status, 400);
  });
});
