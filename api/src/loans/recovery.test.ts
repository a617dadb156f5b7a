import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { and, eq, inArray } from "drizzle-orm";
import { createWalletClient, http, maxUint256, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { loans, orders } from "#db/schema";
import { STALE_MS } from "../jobs/loanWatcher";
import { maturityDefaultAt } from "#domain/schedule";
import { formatUsdAmount } from "#domain/money";
import { fund, makeUser, notificationsOf, parPriceNow, sendAs, startLoanStack, validRequest, type LoanStack, type TestUser } from "#testing/loanStack";

let stack: LoanStack;
let admin: TestUser;
let borrower: TestUser;

before(async () => {
  stack = await startLoanStack({ indexer: true });
  admin = await makeUser(stack.api, { admin: true });
  borrower = await makeUser(stack.api, { kyc: "approved", wallet: true });
});
after(async () => {
  await stack?.close();
});

const call = (...args: Parameters<LoanStack["api"]["call"]>) => stack.api.call(...args);
const contracts = () => stack.deployment.contracts as Record<"loanNote" | "marketplace" | "stablecoin" | "vault", Address>;
const as = (key: `0x${string}`) => createWalletClient({ account: privateKeyToAccount(key), chain: foundry, transport: http(stack.anvil.rpcUrl) });
const db = () => stack.api.database.db;

async function requestLoan(body: Record<string, unknown> = {}) {
  const answer = await call("POST", "/loans/request", { token: borrower.token, body: { ...validRequest, ...body } });
  assert.equal(answer.status, 201, answer.body.message);
  return answer.body.data;
}

async function loanRow(id: string) {
  const [row] = await db().select().from(loans).where(eq(loans.id, id));
  return row;
}

/** The origination a crashed API sent but never recorded, sent here with the originator's key. */
async function originateBehindTheApi(loanNumber: number, principal: bigint) {
  const hash = await as(DEV_ACCOUNTS.originator).writeContract({
    address: contracts().loanNote,
    abi: loanNoteAbi,
    functionName: "originate",
    args: [BigInt(loanNumber), borrower.wallet!.address, principal, 850, 12],
  });
  await stack.chain.waitForTransactionReceipt({ hash });
  return hash;
}

const alerts = async () => (await notificationsOf(stack.api, admin.id)).filter((n) => n.type === "system_alert");

describe("a chain that is down", () => {
  test("leaves the approved loan failed with a system alert, and retry-mint succeeds once it is back", async () => {
    const loan = await requestLoan();
    const alertsBefore = (await alerts()).length;
    stack.relay.down();
    const answer = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} });
    stack.relay.up();
    assert.equal(answer.status, 200, answer.body.message);
    assert.equal(answer.body.message, "Loan approved, but minting its NFT failed; retry minting once the chain is reachable");
    assert.equal(answer.body.data.status, "approved");
    assert.equal(answer.body.data.mintStatus, "failed");
    assert.ok(answer.body.data.mintError);
    const newAlerts = (await alerts()).slice(alertsBefore);
    assert.ok(newAlerts.some((n) => n.message.startsWith(`Minting note #${loan.loanNumber} failed`)));

    const retried = await call("POST", `/admin/nfts/${loan._id}/retry-mint`, { token: admin.token, body: { walletAddress: borrower.wallet!.address } });
    assert.equal(retried.status, 200, retried.body.message);
    assert.equal(retried.body.data.mintStatus, "minted");
    assert.equal(retried.body.data.status, "active");
    assert.equal(retried.body.data.listingStatus, "listed");
    assert.ok(retried.body.data.timeline.some((e: any) => e.action === "mint_retried" && e.by._id === admin.id));
    const again = await call("POST", `/admin/nfts/${loan._id}/retry-mint`, { token: admin.token, body: {} });
    assert.equal(again.status, 409);
    assert.equal(again.body.message, "This loan's NFT is already minted");
  });

  test("refuses retry-mint to a wallet that is not the borrower's", async () => {
    const loan = await requestLoan();
    stack.relay.down();
    await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} });
    stack.relay.up();
    const other = await makeUser(stack.api, { kyc: "approved", wallet: true });
    const answer = await call("POST", `/admin/nfts/${loan._id}/retry-mint`, { token: admin.token, body: { walletAddress: other.wallet!.address } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, "The wallet address must be the borrower's verified wallet");
  });
});

describe("reconciliation after a crash", () => {
  test("finds minted a loan left minting whose note was originated: the indexer took it, with its transaction", async () => {
    const loan = await requestLoan();
    // The API crashed after claiming the loan and sending the origination, before recording anything else.
    await db().update(loans).set({ status: "approved", mintStatus: "minting", principal: 5_000_000_000n, borrowerWallet: borrower.wallet!.address.toLowerCase() }).where(eq(loans.id, loan._id));
    const hash = await originateBehindTheApi(loan.loanNumber, 5_000_000_000n);
    const result = await stack.services.origination.reconcileAll();
    assert.ok(result.minted >= 1);
    const row = await loanRow(loan._id);
    assert.equal(row.mintStatus, "minted");
    assert.equal(row.status, "active");
    assert.equal(row.nftTransactionHash, hash);
    assert.ok(row.noteStart! > 0n);
  });

  test("marks failed a loan left minting with no note, and a minted loan whose note the chain lacks", async () => {
    const minting = await requestLoan();
    const minted = await requestLoan();
    await db().update(loans).set({ status: "approved", mintStatus: "minting", principal: 5_000_000_000n, borrowerWallet: borrower.wallet!.address.toLowerCase() }).where(eq(loans.id, minting._id));
    await db()
      .update(loans)
      .set({ status: "active", mintStatus: "minted", principal: 5_000_000_000n, borrowerWallet: borrower.wallet!.address.toLowerCase(), nftTokenId: String(minted.loanNumber) })
      .where(eq(loans.id, minted._id));
    await stack.services.origination.reconcileAll();
    const a = await loanRow(minting._id);
    const b = await loanRow(minted._id);
    assert.equal(a.mintStatus, "failed");
    assert.equal(b.mintStatus, "failed");
    assert.equal(b.status, "approved");
    // Both can be retried and end minted.
    for (const id of [minting._id, minted._id]) {
      const retried = await call("POST", `/admin/nfts/${id}/retry-mint`, { token: admin.token, body: {} });
      assert.equal(retried.body.data.mintStatus, "minted", retried.body.message);
    }
  });

  test("a failed loan whose note was originated after all is minted by the indexer, and a retry never mints twice", async () => {
    const loan = await requestLoan();
    await db().update(loans).set({ status: "approved", mintStatus: "failed", principal: 5_000_000_000n, borrowerWallet: borrower.wallet!.address.toLowerCase() }).where(eq(loans.id, loan._id));
    await originateBehindTheApi(loan.loanNumber, 5_000_000_000n);
    await stack.indexer!.caughtUp();
    assert.equal((await loanRow(loan._id)).mintStatus, "minted");
    const retried = await call("POST", `/admin/nfts/${loan._id}/retry-mint`, { token: admin.token, body: {} });
    assert.equal(retried.status, 409);
    assert.equal(retried.body.message, "This loan's NFT is already minted");
    const logs = await stack.chain.getContractEvents({ address: contracts().loanNote, abi: loanNoteAbi, eventName: "LoanOriginated", args: { tokenId: BigInt(loan.loanNumber) }, fromBlock: 0n });
    assert.equal(logs.length, 1);
  });

  test("approving a request whose note was originated behind the API while it was pending fails it, rather than adopting that note", async () => {
    const loan = await requestLoan();
    await originateBehindTheApi(loan.loanNumber, 5_000_000_000n);
    await stack.indexer!.caughtUp();
    assert.equal((await loanRow(loan._id)).status, "pending", "a pending request never follows a note");
    const answer = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} });
    assert.equal(answer.status, 200, answer.body.message);
    assert.equal(answer.body.data.mintStatus, "failed");
    assert.equal(answer.body.data.mintError, "The note exists on-chain, but its origination was not this loan's approval");
    assert.equal(answer.body.data.nftTokenId, null);
  });

  test("the loan job fails a loan a reorg left minting once stale, when no block took its origination again, and leaves a mint the node still holds", async () => {
    const [dropped, held] = [await requestLoan(), await requestLoan()];
    const minting = { status: "approved", mintStatus: "minting", principal: 5_000_000_000n, borrowerWallet: borrower.wallet!.address.toLowerCase() } as const;
    await db().update(loans).set(minting).where(eq(loans.id, dropped._id));
    const fork = await stack.rpc("evm_snapshot");
    const hash = await originateBehindTheApi(dropped.loanNumber, 5_000_000_000n);
    await stack.indexer!.caughtUp();
    assert.equal((await loanRow(dropped._id)).mintStatus, "minted");
    const oldHead = await stack.chain.getBlockNumber();
    assert.equal(await stack.rpc("evm_revert", [fork]), true);
    while ((await stack.chain.getBlockNumber()) <= oldHead) await stack.rpc("evm_mine", []);
    await stack.indexer!.caughtUp();
    assert.equal((await loanRow(dropped._id)).mintStatus, "minting", "the reorg put the loan back as the approval left it");
    await assert.rejects(stack.chain.getTransaction({ hash }), /could not be found/, "and no block took the origination again");
    await db().update(loans).set({ mintTxHash: hash }).where(eq(loans.id, dropped._id));
    // The other one's origination is still with the node (any transaction it knows stands in for it here).
    const known = await as(DEV_ACCOUNTS.deployer).sendTransaction({ to: borrower.wallet!.address, value: 1n });
    await stack.chain.waitForTransactionReceipt({ hash: known });
    await db()
      .update(loans)
      .set({ ...minting, mintTxHash: known })
      .where(eq(loans.id, held._id));

    assert.equal((await stack.services.watcher.runOnce()).unminted, 0, "a loan minting for less than ten minutes may still be waiting for its receipt");
    const staleAt = new Date(Date.now() - STALE_MS - 1_000);
    await db()
      .update(loans)
      .set({ updatedAt: staleAt })
      .where(inArray(loans.id, [dropped._id, held._id]));
    const alertsBefore = (await alerts()).length;
    assert.equal((await stack.services.watcher.runOnce()).unminted, 1);
    const failed = await loanRow(dropped._id);
    assert.deepEqual([failed.status, failed.mintStatus, failed.mintError], ["approved", "failed", "Reconciled with the chain: the origination never happened"]);
    assert.ok((await alerts()).slice(alertsBefore).some((n) => n.message.startsWith(`Minting note #${dropped.loanNumber} failed`)));
    assert.equal((await loanRow(held._id)).mintStatus, "minting");
    const retried = await call("POST", `/admin/nfts/${dropped._id}/retry-mint`, { token: admin.token, body: {} });
    assert.equal(retried.body.data.mintStatus, "minted", retried.body.message);
    await db().update(loans).set({ mintStatus: "failed" }).where(eq(loans.id, held._id)); // not a loan for the tests after this one
  });

  test("a reorg cannot drop the treasury's listing, a signature rather than a transaction: the note stays offered at par and the loan job has nothing to fix", async () => {
    const loan = await requestLoan();
    await db().update(loans).set({ status: "approved", mintStatus: "minting", principal: 5_000_000_000n, borrowerWallet: borrower.wallet!.address.toLowerCase() }).where(eq(loans.id, loan._id));
    await originateBehindTheApi(loan.loanNumber, 5_000_000_000n);
    await stack.indexer!.caughtUp();
    assert.deepEqual([(await loanRow(loan._id)).mintStatus, (await loanRow(loan._id)).listingStatus], ["minted", "none"]);
    const fork = await stack.rpc("evm_snapshot");
    const headBefore = await stack.chain.getBlockNumber();
    const listed = await call("POST", `/admin/loans/${loan._id}/retry-listing`, { token: admin.token });
    assert.equal(listed.body.data.listingStatus, "listed", listed.body.message);
    assert.equal((await loanRow(loan._id)).listingTxHash, null);
    assert.equal(await stack.chain.getBlockNumber(), headBefore, "listing sent no transaction");
    await stack.rpc("evm_mine", []);
    const oldHead = await stack.chain.getBlockNumber();
    assert.equal(await stack.rpc("evm_revert", [fork]), true);
    while ((await stack.chain.getBlockNumber()) <= oldHead) await stack.rpc("evm_mine", []);
    await stack.indexer!.caughtUp();

    await db()
      .update(loans)
      .set({ updatedAt: new Date(Date.now() - STALE_MS - 1_000) })
      .where(eq(loans.id, loan._id));
    assert.deepEqual(await stack.services.watcher.runOnce(), { defaulted: 0, unminted: 0 });
    assert.equal((await loanRow(loan._id)).listingStatus, "listed");
    const shown = await call("GET", `/nfts/${loan.loanNumber}`);
    // At 100% of par: the principal plus the interest accrued, as the chain prices the listing's fill.
    const par = formatUsdAmount(await parPriceNow(stack, loan.loanNumber));
    assert.deepEqual([shown.body.data.marketplaceStatus, shown.body.data.listingPrice, shown.body.data.sellerAddress], ["listed", par, stack.deployment.treasury.toLowerCase()]);
  });
});

describe("start-up reconciliation of listings", () => {
  test("lists at par a minted note a crash left unlisted, and leaves unlisted a note an admin unlisted", async () => {
    const openTreasuryListings = async (loanNumber: number) =>
      (
        await db()
          .select()
          .from(orders)
          .where(and(eq(orders.tokenId, BigInt(loanNumber)), eq(orders.signer, stack.deployment.treasury.toLowerCase()), eq(orders.status, "open")))
      ).map((o) => [o.kind, o.parBps, o.price]);
    // The API crashed between the origination and its listing: the note is minted, never listed.
    const crashed = await requestLoan();
    await db().update(loans).set({ status: "approved", mintStatus: "minting", principal: 5_000_000_000n, borrowerWallet: borrower.wallet!.address.toLowerCase() }).where(eq(loans.id, crashed._id));
    await originateBehindTheApi(crashed.loanNumber, 5_000_000_000n);
    await stack.indexer!.caughtUp();
    // An admin took the other note off the market.
    const unlisted = await requestLoan();
    const approved = await call("PUT", `/admin/loans/${unlisted._id}/approve`, { token: admin.token, body: {} });
    assert.equal(approved.body.data.listingStatus, "listed", approved.body.message);
    const taken = await call("PUT", `/admin/treasury/notes/${unlisted.loanNumber}/unlist`, { token: admin.token });
    assert.equal(taken.status, 200, taken.body.message);
    assert.deepEqual([(await loanRow(crashed._id)).listingStatus, (await loanRow(unlisted._id)).listingStatus], ["none", "none"]);

    await stack.services.origination.reconcileAll();
    assert.equal((await loanRow(crashed._id)).listingStatus, "listed");
    assert.deepEqual(await openTreasuryListings(crashed.loanNumber), [["listing", 10_000, 0n]]);
    assert.equal((await loanRow(unlisted._id)).listingStatus, "none", "the admin's unlisting stands");
    assert.deepEqual(await openTreasuryListings(unlisted.loanNumber), []);
  });
});

describe("the treasury's funds", () => {
  test("a system alert and the portfolio's warning when its allowance cannot fund an approval, which then succeeds once restored", async () => {
    const loan = await requestLoan();
    const treasury = as(DEV_ACCOUNTS.treasury);
    const approve = async (amount: bigint) => {
      const hash = await treasury.writeContract({ address: contracts().stablecoin, abi: testDollarAbi, functionName: "approve", args: [contracts().loanNote, amount] });
      await stack.chain.waitForTransactionReceipt({ hash });
    };
    await approve(0n);
    const answer = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} });
    assert.equal(answer.body.data.mintStatus, "failed");
    assert.ok((await alerts()).some((n) => n.message.startsWith("The treasury cannot fund the next approval of $5,000.00")));
    // Another request waits: the portfolio says the treasury cannot fund it, its balance being no use without the allowance.
    const waiting = await requestLoan({ amount: "7000" });
    const summary = await call("GET", "/admin/treasury", { token: admin.token });
    assert.equal(summary.body.data.allowance, "0");
    assert.ok(Number(summary.body.data.balance) >= 7000, "the balance alone would cover it");
    assert.deepEqual([summary.body.data.nextApproval, summary.body.data.canFundNextApproval], ["7000", false]);
    await approve(maxUint256);
    const restored = await call("GET", "/admin/treasury", { token: admin.token });
    assert.deepEqual([restored.body.data.nextApproval, restored.body.data.canFundNextApproval], ["7000", true]);
    const rejected = await call("PUT", `/admin/loans/${waiting._id}/reject`, { token: admin.token, body: { rejectionReason: "Only here to be waiting" } });
    assert.equal(rejected.status, 200, rejected.body.message);
    const retried = await call("POST", `/admin/nfts/${loan._id}/retry-mint`, { token: admin.token, body: {} });
    assert.equal(retried.body.data.mintStatus, "minted", retried.body.message);
  });
});

describe("defaults", () => {
  test("after maturity and the grace period the job marks the loan defaulted and tells borrower, holder and admins", async () => {
    const loan = await requestLoan({ amount: "1000", termMonths: 1 });
    const approved = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} });
    assert.equal(approved.body.data.mintStatus, "minted", approved.body.message);
    const byHand = await requestLoan({ amount: "1000", termMonths: 1 });
    await call("PUT", `/admin/loans/${byHand._id}/approve`, { token: admin.token, body: {} });

    // An investor buys the first note, so the holder is a user other than the borrower.
    const investor = await makeUser(stack.api, { kyc: "approved", wallet: true });
    // Funded with the listing's price now: 100% of par is the principal plus the interest accrued (the dirty price).
    const price = await parPriceNow(stack, loan.loanNumber);
    await fund(stack, investor.wallet!.address, price);
    await sendAs(stack, investor.wallet!, {
      to: contracts().stablecoin,
      data: (await import("viem")).encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [contracts().marketplace, maxUint256] }),
    });
    // The treasury's listing is a signature: the buy route answers the call that fills it.
    const expectedPrice = formatUsdAmount(price);
    const offer = await call("POST", `/nfts/${loan.loanNumber}/buy`, { token: investor.token, body: { expectedPrice } });
    assert.equal(offer.status, 200, offer.body.message);
    await sendAs(stack, investor.wallet!, offer.body.data.calls.buy);

    const early = await call("POST", `/admin/loans/${byHand._id}/default`, { token: admin.token });
    assert.equal(early.status, 409);
    assert.match(early.body.message, /^This loan can be marked defaulted from /);
    assert.equal((await stack.services.watcher.runOnce()).defaulted, 0);

    await stack.rpc("evm_increaseTime", [61 * 86_400]);
    await stack.rpc("evm_mine", []);
    const manual = await call("POST", `/admin/loans/${byHand._id}/default`, { token: admin.token });
    assert.equal(manual.status, 200, manual.body.message);
    assert.equal(manual.body.data.status, "defaulted");
    // The admin sent the default; the indexer recorded it from the chain.
    const timeline = manual.body.data.timeline.map((e: any) => [e.action, e.by?._id ?? null]);
    assert.deepEqual(timeline.slice(-2), [
      ["default_sent", admin.id],
      ["defaulted", null],
    ]);

    const result = await stack.services.watcher.runOnce();
    assert.ok(result.defaulted >= 1);
    await stack.indexer!.caughtUp();
    await stack.api.server.outbox!.deliverNow();
    const row = await loanRow(loan._id);
    assert.equal(row.status, "defaulted");
    const onChain = (await stack.chain.readContract({ address: contracts().loanNote, abi: loanNoteAbi, functionName: "loanOf", args: [BigInt(loan.loanNumber)] })) as { status: number };
    assert.equal(Number(onChain.status), 3);
    const text = `Loan #${loan.loanNumber} ($1,000.00) was marked as defaulted.`;
    assert.ok((await notificationsOf(stack.api, borrower.id)).some((n) => n.message === text));
    assert.ok((await notificationsOf(stack.api, investor.id)).some((n) => n.message === text));
    assert.ok((await alerts()).some((n) => n.message === text));
    const dashboard = await call("GET", "/admin/dashboard", { token: admin.token });
    assert.ok(dashboard.body.data.defaultedLoans >= 2);
  });

  test("the admin's default and the job wait for the exact second the grace period ends: refused with that date one second before, sent at it", async () => {
    const byHand = await requestLoan({ amount: "1000", termMonths: 1 });
    const byJob = await requestLoan({ amount: "1000", termMonths: 1 });
    for (const loan of [byHand, byJob]) {
      const approved = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} });
      assert.equal(approved.body.data.mintStatus, "minted", approved.body.message);
      // An hour between the two starts, so each boundary can be reached without passing the other's.
      await stack.rpc("evm_increaseTime", [3600]);
    }
    const grace = BigInt(await stack.chain.readContract({ address: contracts().loanNote, abi: loanNoteAbi, functionName: "gracePeriod" }));
    const onChain = async (loan: { loanNumber: number }) =>
      (await stack.chain.readContract({ address: contracts().loanNote, abi: loanNoteAbi, functionName: "loanOf", args: [BigInt(loan.loanNumber)] })) as {
        start: bigint | number;
        termMonths: number;
        status: number;
      };
    const availableAt = async (loan: { loanNumber: number }) => {
      const { start, termMonths } = await onChain(loan);
      // A one-month loan's oldest unpaid installment is due at maturity: the grace period after it comes first.
      return maturityDefaultAt({ principal: 1_000_000_000n, rateBps: 0, termMonths: Number(termMonths), start: BigInt(start) }, grace);
    };
    const statuses = async () => [Number((await onChain(byHand)).status), Number((await onChain(byJob)).status)];
    const mineAt = async (timestamp: bigint) => {
      await stack.rpc("evm_setNextBlockTimestamp", [Number(timestamp)]);
      await stack.rpc("evm_mine", []);
    };
    const [handAt, jobAt] = [await availableAt(byHand), await availableAt(byJob)];

    await mineAt(handAt - 1n);
    const early = await call("POST", `/admin/loans/${byHand._id}/default`, { token: admin.token });
    assert.equal(early.status, 409);
    assert.equal(early.body.message, `This loan can be marked defaulted from ${new Date(Number(handAt) * 1000).toISOString()}`);
    await mineAt(handAt);
    const manual = await call("POST", `/admin/loans/${byHand._id}/default`, { token: admin.token });
    assert.equal(manual.status, 200, manual.body.message);
    assert.deepEqual(await statuses(), [3, 1]);

    await mineAt(jobAt - 1n);
    await stack.services.watcher.runOnce();
    assert.deepEqual(await statuses(), [3, 1], "the job sent nothing a second early");
    await mineAt(jobAt);
    await stack.services.watcher.runOnce();
    assert.deepEqual(await statuses(), [3, 3], "the job defaulted the loan from the second its grace period ended");
  });

  test("the job defaults a loan whose oldest unpaid installment is ninety days past due, long before its maturity, not a second earlier", async () => {
    const loan = await requestLoan({ amount: "1000", termMonths: 12 });
    const approved = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} });
    assert.equal(approved.body.data.mintStatus, "minted", approved.body.message);
    const tokenId = BigInt(loan.loanNumber);
    const read = (functionName: "loanOf" | "defaultableAt") => stack.chain.readContract({ address: contracts().loanNote, abi: loanNoteAbi, functionName, args: [tokenId] });
    const { start } = (await read("loanOf")) as { start: bigint | number };
    const moment = BigInt(start) + 30n * 86_400n + 90n * 86_400n;
    assert.equal(await read("defaultableAt"), moment, "the first installment due a month in, then ninety days");
    const status = async () => Number(((await read("loanOf")) as { status: number }).status);
    const mineAt = async (timestamp: bigint) => {
      await stack.rpc("evm_setNextBlockTimestamp", [Number(timestamp)]);
      await stack.rpc("evm_mine", []);
    };
    await mineAt(moment - 1n);
    await stack.services.watcher.runOnce();
    assert.equal(await status(), 1, "the job sent nothing a second early");
    await mineAt(moment);
    await stack.services.watcher.runOnce();
    assert.equal(await status(), 3, "the job defaulted the loan from the second the contract allows it");
  });
});
