import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import { createWalletClient, encodeFunctionData, http, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { orders } from "#db/schema";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { CONTRACT_ERROR_SENTENCES } from "#domain/contractErrors";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { makeUser, publishOrder, sendAs, startLoanStack, type LoanStack, type TestUser } from "#testing/loanStack";
import { fundedBuyer, operatorApproval, SIMULATED_BUYER } from "./simulateFill";
import { ORDER_ANSWERS } from "./texts";

/**
 * The order book shows an order only if the chain would fill it now: a fill is simulated with what its sender would
 * do first taken as done. Real Postgres, a private anvil with the contracts, the real indexer.
 */
describe("a fill is simulated before an order is shown", () => {
  let stack: LoanStack;
  let admin: TestUser, borrower: TestUser, alice: TestUser;
  const call = (method: string, path: string, user?: TestUser, body?: unknown) => stack.api.call(method, path, { token: user?.token, body });
  const contracts = () => stack.deployment.contracts as Record<"loanNote" | "marketplace" | "stablecoin", Address>;

  before(async () => {
    stack = await startLoanStack({ indexer: true });
    [admin, borrower, alice] = await Promise.all([
      makeUser(stack.api, { admin: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
    ]);
    await stack.rpc("anvil_setBalance", [alice.wallet!.address, "0x56BC75E2D63100000"]);
  });

  after(async () => {
    await stack?.close();
  });

  it("assumes exactly the approval and the funds it says: the overrides land where the contracts keep them", async () => {
    const [note, dollar] = [contracts().loanNote, contracts().stablecoin];
    const approved = await stack.chain.call({
      to: note,
      data: encodeFunctionData({ abi: loanNoteAbi, functionName: "isApprovedForAll", args: [alice.wallet!.address, contracts().marketplace] }),
      stateOverride: [operatorApproval(note, alice.wallet!.address, contracts().marketplace)],
    });
    assert.equal(BigInt(approved.data!), 1n);
    const override = [fundedBuyer(dollar, SIMULATED_BUYER, contracts().marketplace, 777n)];
    const balance = await stack.chain.call({ to: dollar, data: encodeFunctionData({ abi: testDollarAbi, functionName: "balanceOf", args: [SIMULATED_BUYER] }), stateOverride: override });
    const allowance = await stack.chain.call({
      to: dollar,
      data: encodeFunctionData({ abi: testDollarAbi, functionName: "allowance", args: [SIMULATED_BUYER, contracts().marketplace] }),
      stateOverride: override,
    });
    assert.deepEqual([BigInt(balance.data!), BigInt(allowance.data!)], [777n, 777n]);
  });

  it("refuses a listing whose seller never let the marketplace move the note, and hides one whose seller took that back", async () => {
    const requested = await call("POST", "/loans/request", borrower, { amount: "2500", interestRate: 10, termMonths: 12, purpose: "business" });
    assert.equal(requested.status, 201, requested.body?.message);
    assert.equal((await call("PUT", `/admin/loans/${requested.body.data._id}/approve`, admin, {})).status, 200);
    const tokenId = BigInt(requested.body.data.loanNumber);
    const treasury = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.treasury), chain: foundry, transport: http(stack.anvil.rpcUrl) });
    const moved = await treasury.writeContract({
      address: contracts().loanNote,
      abi: loanNoteAbi,
      functionName: "transferFrom",
      args: [stack.deployment.treasury as Address, alice.wallet!.address, tokenId],
    });
    await stack.chain.waitForTransactionReceipt({ hash: moved });
    await stack.indexer!.caughtUp();

    // Every check of the order rule passes (Alice holds the note, it is current, the signature is hers), but the
    // marketplace may not move her notes: the simulated fill says so, and nothing is published.
    const typed = await call("POST", "/orders/typed-data", alice, { kind: "listing", tokenId: tokenId.toString(), priceKind: "fixed", price: "2600" });
    const message = Object.fromEntries(Object.entries(typed.body.data.typedData.message as Record<string, string>).map(([k, v]) => [k, /^0x/.test(v) ? v : BigInt(v)]));
    const signature = await alice.wallet!.signTypedData({ ...typed.body.data.typedData, message } as never);
    const refused = await call("POST", "/orders", alice, { kind: "listing", message: typed.body.data.typedData.message, signature });
    assert.deepEqual([refused.status, refused.body.message], [400, ORDER_ANSWERS.wouldNotFill(CONTRACT_ERROR_SENTENCES.ERC721InsufficientApproval)]);
    assert.equal((await stack.api.database.db.select().from(orders).where(eq(orders.signer, alice.wallet!.address.toLowerCase()))).length, 0);

    const approveAll = (allowed: boolean) =>
      sendAs(stack, alice.wallet!, { to: contracts().loanNote, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "setApprovalForAll", args: [contracts().marketplace, allowed] }) });
    await approveAll(true);
    const { hash } = await publishOrder(stack.api, alice, { kind: "listing", tokenId: tokenId.toString(), priceKind: "fixed", price: "2600" });
    const shown = async () => (await call("GET", `/orders/note/${tokenId}`)).body.data.listings.map((o: { hash: string }) => o.hash);
    assert.deepEqual(await shown(), [hash]);

    // Taking the approval back leaves a listing nobody can fill: the book's next judge hides it, with the chain's reason.
    await approveAll(false);
    assert.deepEqual(await shown(), [], "a listing nobody can fill is not shown");
    const [stored] = await stack.api.database.db.select().from(orders).where(eq(orders.hash, hash));
    assert.deepEqual([stored.status, stored.statusReason], ["lapsed", CONTRACT_ERROR_SENTENCES.ERC721InsufficientApproval]);
    await approveAll(true);
    assert.deepEqual(await shown(), [hash], "and shows it again once the marketplace may move the note");
  });
});
