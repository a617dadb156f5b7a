import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { and, eq } from "drizzle-orm";
import { verifyTypedData, type Address, type Hex } from "viem";
import { loans, orders } from "#db/schema";
import { loanNoteAbi, noteMarketplaceAbi, testDollarAbi } from "#domain/abis";
import { ORDER_TYPES, orderDomain } from "#domain/orders";
import { LOAN_NOTE_STATUS } from "#domain/loanNoteStatus";
import { fund, makeUser, notificationsOf, payPastDue, sendAs, startLoanStack, validRequest, type LoanStack, type TestUser } from "#testing/loanStack";

let stack: LoanStack;
let admin: TestUser;
let borrower: TestUser;
let other: TestUser;

before(async () => {
  stack = await startLoanStack({ indexer: true });
  admin = await makeUser(stack.api, { admin: true });
  borrower = await makeUser(stack.api, { kyc: "approved", wallet: true, firstName: "Bea" });
  other = await makeUser(stack.api, { kyc: "approved", wallet: true });
  await fund(stack, borrower.wallet!.address, 0n);
});
after(async () => {
  await stack?.close();
});

const call = (...args: Parameters<LoanStack["api"]["call"]>) => stack.api.call(...args);
const contracts = () => stack.deployment.contracts as Record<"loanNote" | "marketplace" | "stablecoin" | "vault", Address>;
const read = (address: Address, abi: any, functionName: string, args: unknown[] = []) => stack.chain.readContract({ address, abi, functionName, args } as never) as Promise<any>;

/** The treasury's signed listings of a note, oldest first. */
const treasuryListings = async (tokenId: bigint) =>
  (
    await stack.api.database.db
      .select()
      .from(orders)
      .where(and(eq(orders.tokenId, tokenId), eq(orders.signer, stack.deployment.treasury.toLowerCase())))
  ).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
const usedOnChain = async (hash: string) => (await read(contracts().marketplace, noteMarketplaceAbi, "orderStatus", [stack.deployment.treasury, hash]))[0] as boolean;

async function requestLoan(user: TestUser, body: Record<string, unknown> = {}) {
  const answer = await call("POST", "/loans/request", { token: user.token, body: { ...validRequest, ...body } });
  assert.equal(answer.status, 201, answer.body.message);
  return answer.body.data;
}

describe("approval", () => {
  test("funds the borrower's verified wallet, mints the note to the treasury and lists it at par", async () => {
    const loan = await requestLoan(borrower);
    const before = (await read(contracts().stablecoin, testDollarAbi, "balanceOf", [borrower.wallet!.address])) as bigint;
    const answer = await call("PUT", `/admin/loans/${loan._id}/approve`, {
      token: admin.token,
      body: { walletAddress: borrower.wallet!.address, adminNotes: "Good history", fundingAmount: "4000" },
    });
    assert.equal(answer.status, 200, answer.body.message);
    assert.equal(answer.body.message, "Loan approved successfully!");
    const approved = answer.body.data;
    assert.equal(approved.status, "active");
    assert.equal(approved.mintStatus, "minted");
    assert.equal(approved.listingStatus, "listed");
    assert.equal(approved.principal, "4000");
    assert.equal(approved.amount, "5000");
    assert.equal(approved.nftTokenId, String(loan.loanNumber));
    assert.match(approved.nftTransactionHash, /^0x[0-9a-f]{64}$/);
    assert.deepEqual(
      approved.timeline.map((e: any) => e.action),
      ["requested", "approved", "mint_sent", "minted", "listed"],
    );
    assert.equal(approved.timeline[1].by._id, admin.id);
    assert.match(approved.timeline[1].notes, /Good history/);
    // Stored notes read as the UI writes money, never as the wire's "4000 USD".
    assert.equal(approved.timeline[1].notes, `Good history — Funding $4,000.00 to ${borrower.wallet!.address.toLowerCase()}`);
    assert.equal(approved.timeline[4].notes, "Listed at 100% of par ($4,000.00 today) by the treasury's signature");

    const tokenId = BigInt(loan.loanNumber);
    const after = (await read(contracts().stablecoin, testDollarAbi, "balanceOf", [borrower.wallet!.address])) as bigint;
    assert.equal(after - before, 4_000_000_000n);
    assert.equal(((await read(contracts().loanNote, loanNoteAbi, "ownerOf", [tokenId])) as string).toLowerCase(), stack.deployment.treasury.toLowerCase());
    const onChain = await read(contracts().loanNote, loanNoteAbi, "loanOf", [tokenId]);
    assert.equal(onChain.principal, 4_000_000_000n);
    assert.equal(Number(onChain.rateBps), 850);
    // Listed by a signature, not a transaction: nothing on-chain, one open listing at 100% of par in the book, which
    // the contract would take (its hash is the contract's, its signer the treasury's key).
    const [seller] = await read(contracts().marketplace, noteMarketplaceAbi, "listingOf", [tokenId]);
    assert.equal(seller, "0x0000000000000000000000000000000000000000");
    const listings = await treasuryListings(tokenId);
    assert.deepEqual(
      listings.map((o) => [o.status, o.parBps, o.price]),
      [["open", 10_000, 0n]],
    );
    const [listing] = listings;
    const message = {
      seller: stack.deployment.treasury as Address,
      tokenId,
      price: 0n,
      parBps: 10_000n,
      changes: listing.changes!,
      maxDaysPastDue: 0n,
      expiry: listing.expiry,
      salt: listing.salt,
      counter: listing.counter,
    };
    assert.equal((await read(contracts().marketplace, noteMarketplaceAbi, "hashListing", [message])).toLowerCase(), listing.hash);
    const domain = orderDomain(stack.deployment.chainId, contracts().marketplace);
    assert.ok(await verifyTypedData({ address: stack.deployment.treasury as Address, domain, types: ORDER_TYPES, primaryType: "Listing", message, signature: listing.signature as Hex }));
    const { maturity } = await read(contracts().loanNote, loanNoteAbi, "noteStateOf", [tokenId]);
    assert.equal(listing.expiry, maturity, "it runs until the note matures: past it an unpaid note can only be late");
    assert.equal(listing.maxDaysPastDue, 0n, "it fills only while the note is current");

    const texts = (await notificationsOf(stack.api, borrower.id)).map((n) => n.message);
    assert.ok(texts.includes("Loan Approved! $4,000.00 has been approved."));
  });

  test("on the spec's path takes {notes} and funds the whole request", async () => {
    const loan = await requestLoan(borrower, { amount: "1500" });
    const answer = await call("PUT", `/loans/admin/approve/${loan._id}`, { token: admin.token, body: { notes: "ok" } });
    assert.equal(answer.status, 200, answer.body.message);
    assert.equal(answer.body.data.principal, "1500");
    assert.equal(answer.body.data.adminNotes, "ok");
  });

  test("refuses to fund a wallet that is not the borrower's verified one", async () => {
    const loan = await requestLoan(borrower);
    const answer = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: { walletAddress: other.wallet!.address } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, "The wallet address must be the borrower's verified wallet");
    const unchanged = await call("GET", `/loans/${loan._id}`, { token: borrower.token });
    assert.equal(unchanged.body.data.status, "pending");
  });

  test("twice at once mints once", async () => {
    const loan = await requestLoan(borrower, { amount: "2500" });
    const [a, b] = await Promise.all([
      call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} }),
      call("PUT", `/loans/admin/approve/${loan._id}`, { token: admin.token, body: {} }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 409]);
    const logs = await stack.chain.getContractEvents({ address: contracts().loanNote, abi: loanNoteAbi, eventName: "LoanOriginated", args: { tokenId: BigInt(loan.loanNumber) }, fromBlock: 0n });
    assert.equal(logs.length, 1);
    const final = await call("GET", `/loans/${loan._id}`, { token: admin.token });
    assert.equal(final.body.data.mintStatus, "minted");
    assert.equal(final.body.data.timeline.filter((e: any) => e.action === "mint_sent").length, 1);
    assert.equal(final.body.data.timeline.filter((e: any) => e.action === "approved").length, 1);
  });
});

describe("repayment", () => {
  test("answers the permit to sign and the call to send, checked against the schedule, up to the final payoff", async () => {
    const loan = await requestLoan(borrower, { amount: "1200", termMonths: 6 });
    const approved = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} });
    assert.equal(approved.body.data.mintStatus, "minted");
    const monthly = approved.body.data.monthlyPayment as string;

    const first = await call("PUT", `/loans/${loan._id}/repayment`, { token: borrower.token, body: { amount: monthly, installmentNumber: 1 } });
    assert.equal(first.status, 200, first.body.message);
    const answer = first.body.data;
    assert.equal(answer.schedule.monthlyPayment, monthly);
    assert.deepEqual([answer.installmentNumber, answer.schedule.installmentsPaid, answer.schedule.nextInstallment], [1, 0, 1]);
    assert.deepEqual([answer.amount, answer.amountTaken, answer.capped], [monthly, monthly, false], "an installment is taken whole, not capped");
    assert.equal(answer.permit.primaryType, "Permit");
    assert.equal(answer.permit.message.owner.toLowerCase(), borrower.wallet!.address.toLowerCase());
    assert.equal(answer.call, null);
    const signature = await borrower.wallet!.signTypedData({
      domain: { ...answer.permit.domain, verifyingContract: answer.permit.domain.verifyingContract as Address },
      types: answer.permit.types,
      primaryType: "Permit",
      message: { ...answer.permit.message, value: BigInt(answer.permit.message.value), nonce: BigInt(answer.permit.message.nonce), deadline: BigInt(answer.permit.message.deadline) },
    });
    const signed = await call("PUT", `/loans/${loan._id}/repayment`, {
      token: borrower.token,
      body: { amount: monthly, installmentNumber: 1, signature, deadline: answer.deadline },
    });
    const tx = signed.body.data.call;
    assert.equal(tx.to.toLowerCase(), contracts().loanNote.toLowerCase());
    assert.equal(tx.chainId, 31337);
    await sendAs(stack, borrower.wallet!, tx);
    const onChain = await read(contracts().loanNote, loanNoteAbi, "loanOf", [BigInt(loan.loanNumber)]);
    assert.equal(onChain.repaid, BigInt(Math.round(Number(monthly) * 1e6)));

    const paid = await call("PUT", `/loans/${loan._id}/repayment`, { token: borrower.token, body: { amount: monthly, installmentNumber: 1 } });
    assert.equal(paid.status, 400);
    assert.equal(paid.body.message, "Installment 1 is already paid");
    const beyond = await call("PUT", `/loans/${loan._id}/repayment`, { token: borrower.token, body: { amount: monthly, installmentNumber: 7 } });
    assert.equal(beyond.body.message, "Installment number must be between 1 and 6");
    // The last installment may be named; the schedule says the second one is next.
    const last = await call("PUT", `/loans/${loan._id}/repayment`, { token: borrower.token, body: { amount: monthly, installmentNumber: 6 } });
    assert.equal(last.status, 200, last.body.message);
    assert.deepEqual([last.body.data.schedule.installmentsPaid, last.body.data.schedule.nextInstallment], [1, 2]);
    const foreign = await call("PUT", `/loans/${loan._id}/repayment`, { token: other.token, body: { amount: monthly } });
    assert.equal(foreign.status, 404);
    // The borrower may pay from another wallet they name: that wallet signs the permit and its nonce is the one answered.
    const fromOther = await call("PUT", `/loans/${loan._id}/repayment`, { token: borrower.token, body: { amount: monthly, walletAddress: other.wallet!.address } });
    assert.equal(fromOther.status, 200, fromOther.body.message);
    assert.equal(fromOther.body.data.permit.message.owner.toLowerCase(), other.wallet!.address.toLowerCase());
    assert.equal(fromOther.body.data.permit.message.nonce, String(await read(contracts().stablecoin, testDollarAbi, "nonces", [other.wallet!.address])));
    assert.equal(fromOther.body.data.installmentNumber, 2, "the next installment when none is named");
    assert.equal(last.body.data.installmentNumber, 6, "the installment named, not the next one");

    // An overpayment is capped at the payoff, never refused; the plain repay call works after an approve.
    const payoff = await call("PUT", `/loans/${loan._id}/repayment`, { token: borrower.token, body: { amount: "5000" } });
    assert.equal(payoff.body.data.capped, true);
    assert.equal(payoff.body.data.amountTaken, payoff.body.data.schedule.payoffAmount);
    await fund(stack, borrower.wallet!.address, 5_000_000_000n);
    await sendAs(stack, borrower.wallet!, payoff.body.data.calls.approve);
    await sendAs(stack, borrower.wallet!, payoff.body.data.calls.repay);
    // The indexer records the completion when it mirrors the final repayment.
    await stack.indexer!.caughtUp();
    const done = await call("GET", `/loans/${loan._id}`, { token: borrower.token });
    assert.equal(done.body.data.status, "completed");
    assert.equal(done.body.data.performance, "excellent");

    // Only the borrower prepares their repayment: an admin can read the loan, not pay it from this route.
    const byAdmin = await call("PUT", `/loans/${loan._id}/repayment`, { token: admin.token, body: { amount: monthly } });
    assert.deepEqual([byAdmin.status, byAdmin.body.message], [403, "Access denied"]);
    // A mirror that lags the chain (the loan still active here, repaid on-chain) gets no permit to pay a repaid loan.
    await stack.api.database.db.update(loans).set({ status: "active" }).where(eq(loans.id, loan._id));
    const lagging = await call("PUT", `/loans/${loan._id}/repayment`, { token: borrower.token, body: { amount: monthly } });
    assert.deepEqual([lagging.status, lagging.body.message, lagging.body.data], [400, "Only an active or defaulted loan with a minted note can be repaid", null]);
    await stack.api.database.db.update(loans).set({ status: "completed" }).where(eq(loans.id, loan._id));
  });

  test("pins the permit's deadline to an hour after the chain's latest block, and refuses installment 0 by name", async () => {
    const loan = await requestLoan(borrower, { amount: "1000", termMonths: 3 });
    const approved = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} });
    assert.equal(approved.body.data.mintStatus, "minted");
    // The chain runs two days ahead of the server's clock, so a deadline from the wrong clock shows.
    await stack.rpc("evm_increaseTime", [2 * 86_400]);
    await stack.rpc("evm_mine", []);
    const head = await stack.chain.getBlock({ blockTag: "latest" });
    const answer = await call("PUT", `/loans/${loan._id}/repayment`, { token: borrower.token, body: { amount: "10" } });
    assert.equal(answer.status, 200, answer.body.message);
    assert.equal((await stack.chain.getBlock({ blockTag: "latest" })).number, head.number, "no block was mined while the server answered");
    assert.equal(answer.body.data.deadline, String(head.timestamp + 3_600n));
    assert.equal(answer.body.data.permit.message.deadline, String(head.timestamp + 3_600n));

    for (const installmentNumber of [0, "0"]) {
      const zero = await call("PUT", `/loans/${loan._id}/repayment`, { token: borrower.token, body: { amount: "10", installmentNumber } });
      assert.equal(zero.status, 400);
      assert.equal(zero.body.message, "Installment number must be a whole number of 1 or more");
      assert.deepEqual(zero.body.data, { errors: [{ path: "installmentNumber", message: "Installment number must be a whole number of 1 or more" }] }, "no permit, no call");
    }
  });
});

describe("repayment after a default", () => {
  test("a defaulted loan can still be repaid: the route answers its permit as for an active one", async () => {
    const loan = await requestLoan(borrower, { amount: "1000", termMonths: 1 });
    const approved = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} });
    assert.equal(approved.body.data.mintStatus, "minted");
    const grace = (await read(contracts().loanNote, loanNoteAbi, "gracePeriod")) as bigint;
    await stack.rpc("evm_increaseTime", [Number(30n * 86_400n + grace + 60n)]);
    await stack.rpc("evm_mine", []);
    const defaulted = await call("POST", `/admin/loans/${loan._id}/default`, { token: admin.token });
    assert.equal(defaulted.status, 200, defaulted.body.message);
    assert.equal(Number((await read(contracts().loanNote, loanNoteAbi, "loanOf", [BigInt(loan.loanNumber)])).status), LOAN_NOTE_STATUS.defaulted);

    const answer = await call("PUT", `/loans/${loan._id}/repayment`, { token: borrower.token, body: { amount: "100" } });
    assert.equal(answer.status, 200, answer.body.message);
    assert.equal(answer.body.data.permit.message.owner.toLowerCase(), borrower.wallet!.address.toLowerCase());
  });
});

describe("the treasury", () => {
  test("shows its notes, listings and credits, and admins reprice, unlist and withdraw", async () => {
    // The default above moved the chain a month and more ahead, so the note this test lists is past due: its borrower
    // pays what is due first, as the treasury never signs a par listing of a late note (that refusal is not the point here).
    const listed = (await call("GET", "/admin/treasury", { token: admin.token })).body.data.listings[0];
    await payPastDue(stack, borrower.wallet!, listed.tokenId);
    await stack.indexer!.caughtUp();
    const summary = await call("GET", "/admin/treasury", { token: admin.token });
    assert.equal(summary.status, 200, summary.body.message);
    const data = summary.body.data;
    assert.equal(data.address.toLowerCase(), stack.deployment.treasury.toLowerCase());
    assert.ok(Number(data.balance) > 0);
    assert.ok(data.notes.length >= 3);
    assert.ok(data.listings.length >= 3);
    // The repaid loan's payments were credited to the treasury, which held its note.
    assert.ok(Number(data.credits) > 0);

    const note = data.listings[0];
    assert.equal(note.tokenId, listed.tokenId);
    const tokenId = BigInt(note.tokenId);
    const [atPar] = await treasuryListings(tokenId);
    // A reprice is a new listing the treasury signs at the fixed price, and the old one cancelled on-chain.
    const repriced = await call("PUT", `/admin/treasury/notes/${note.tokenId}/price`, { token: admin.token, body: { listingPrice: "1234.5" } });
    assert.equal(repriced.status, 200, repriced.body.message);
    assert.equal(repriced.body.message, "Listing price updated");
    assert.equal(repriced.body.data.listingPrice, "1234.5");
    assert.equal(await usedOnChain(atPar.hash), true, "the listing at par can no longer fill");
    const afterReprice = await treasuryListings(tokenId);
    assert.deepEqual(
      afterReprice.map((o) => [o.status, o.parBps, o.price]),
      [
        ["cancelled", 10_000, 0n],
        ["open", 0, 1_234_500_000n],
      ],
    );
    const shown = (await call("GET", "/admin/treasury", { token: admin.token })).body.data.notes.find((n: any) => n.tokenId === note.tokenId);
    assert.deepEqual([shown.listed, shown.listingPrice], [true, "1234.5"]);
    const badPrice = await call("PUT", `/admin/treasury/notes/${note.tokenId}/price`, { token: admin.token, body: { listingPrice: 0 } });
    assert.equal(badPrice.body.message, "Listing price must be greater than 0");

    const unlisted = await call("PUT", `/admin/treasury/notes/${note.tokenId}/unlist`, { token: admin.token });
    assert.equal(unlisted.status, 200, unlisted.body.message);
    assert.match(unlisted.body.data.txHash, /^0x[0-9a-f]{64}$/);
    assert.equal(await usedOnChain(afterReprice[1].hash), true, "unlisting cancels the signed listing on-chain");
    const twice = await call("PUT", `/admin/treasury/notes/${note.tokenId}/unlist`, { token: admin.token });
    assert.equal(twice.status, 409);
    const relisted = await call("PUT", `/admin/treasury/notes/${note.tokenId}/par`, { token: admin.token });
    assert.equal(relisted.status, 200, relisted.body.message);
    assert.equal(relisted.body.message, "Note listed");
    assert.deepEqual((await treasuryListings(tokenId)).map((o) => [o.status, o.parBps]).at(-1), ["open", 10_000]);

    const withdrawn = await call("POST", "/admin/treasury/withdraw", { token: admin.token });
    assert.equal(withdrawn.status, 200, withdrawn.body.message);
    assert.equal(withdrawn.body.data.amount, data.credits);
    const empty = await call("POST", "/admin/treasury/withdraw", { token: admin.token });
    assert.equal(empty.status, 409);
    assert.equal(empty.body.message, "The treasury has no repayments waiting to be withdrawn");
  });

  test("admin NFT list and dashboard show the minted notes", async () => {
    const nfts = await call("GET", "/nfts/admin/all", { token: admin.token });
    assert.equal(nfts.status, 200);
    assert.ok(nfts.body.data.nfts.length >= 4);
    const minted = nfts.body.data.nfts.find((n: any) => n.mintStatus === "minted");
    assert.equal(minted.contractAddress, contracts().loanNote);
    assert.ok(minted.metadata.loanDetails.amount);
    const dashboard = await call("GET", "/admin/dashboard", { token: admin.token });
    assert.equal(dashboard.body.data.approvalRate, 100);
    assert.ok(Number(dashboard.body.data.totalVolume) >= 4000 + 1500 + 2500 + 1200);
  });
});
