import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import { decodeFunctionData, encodeFunctionData, maxUint256, type Address, type Hex } from "viem";
import { orders } from "#db/schema";
import { loanNoteAbi, noteMarketplaceAbi, noteVaultAbi, testDollarAbi } from "#domain/abis";
import { wireNftSchema } from "#domain/wire/nft";
import { displayUsd, formatUsdAmount } from "#domain/money";
import { NFT_ANSWERS } from "./texts";
import { startIndexer, type Indexer } from "#indexer/index";
import { fund, listOnChain, makeUser, parPriceNow, publishOrder, sendAs, startLoanStack, type LoanStack, type TestUser, buyByPermit } from "#testing/loanStack";

/**
 * The investor's routes against real Postgres, a private anvil with the contracts, the real indexer filling
 * the mirror, and loans approved through the API (which funds, mints and lists each at par).
 */
describe("NFT routes: marketplace, buying, listing, vault moves and the portfolio", { timeout: 300_000 }, () => {
  let stack: LoanStack;
  let indexer: Indexer;
  let admin: TestUser, borrower: TestUser, alice: TestUser, bob: TestUser, noKyc: TestUser, noWallet: TestUser;
  const tokens: Record<string, string> = {};
  const USD = 1_000_000n;

  const call = (method: string, path: string, user?: TestUser, body?: unknown) => stack.api.call(method, path, { token: user?.token, body });
  const synced = () => indexer.caughtUp();
  const send = (user: TestUser, c: { to: string; data: string }) => sendAs(stack, user.wallet!, c);
  /** The treasury's listing at 100% of par, as the chain prices it now (the dirty price: principal plus accrued interest). */
  const parNow = (tokenId: string) => parPriceNow(stack, tokenId);

  async function requestAndApprove(amount: string, interestRate: number, termMonths: number, purpose: string): Promise<string> {
    const requested = await call("POST", "/loans/request", borrower, { amount, interestRate, termMonths, purpose });
    assert.equal(requested.status, 201, requested.body?.message);
    const approved = await call("PUT", `/admin/loans/${requested.body.data._id}/approve`, admin, {});
    assert.equal(approved.status, 200, approved.body?.message);
    return String(requested.body.data.loanNumber ?? approved.body.data.loanNumber);
  }

  const buyAs = (user: TestUser, tokenId: string, price: string) => buyByPermit(stack, user, tokenId, price);

  before(async () => {
    stack = await startLoanStack();
    indexer = startIndexer({ db: stack.api.database.db, rpcUrl: stack.anvil.rpcUrl, deployment: stack.deployment, pollIntervalMs: 100 });
    [admin, borrower, alice, bob, noKyc, noWallet] = await Promise.all([
      makeUser(stack.api, { admin: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "pending", wallet: true }),
      makeUser(stack.api, { kyc: "approved" }),
    ]);
    await fund(stack, alice.wallet!.address, 50_000n * USD);
    await fund(stack, bob.wallet!.address, 50_000n * USD);
    await fund(stack, borrower.wallet!.address, 5_000n * USD);
    tokens.small = await requestAndApprove("3000", 6, 12, "education");
    tokens.medium = await requestAndApprove("10000", 9.5, 24, "business");
    tokens.large = await requestAndApprove("20000", 13, 6, "home_improvement");
    await synced();
  });

  after(async () => {
    await indexer?.stop();
    await stack?.close();
  });

  it("answers once the mirror has indexed a given block, so the wallet's own move shows on the next read", async () => {
    const head = Number(await stack.chain.getBlockNumber());
    const answer = await call("GET", `/nfts/mirror?minBlock=${head}`);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.caughtUp, true);
    assert.ok(answer.body.data.blockNumber >= head);
  });

  it("lets a visitor browse the marketplace without signing in, the same listings a signed-in investor sees", async () => {
    const visitor = await call("GET", "/nfts/marketplace/browse");
    assert.equal(visitor.status, 200);
    const investor = await call("GET", "/nfts/marketplace/browse", alice);
    assert.deepEqual(visitor.body.data, investor.body.data);
    assert.ok(visitor.body.data.nfts.length > 0, "the suite's listed notes are shown");
  });

  it("browses every live listing with the four tiles, newest first", async () => {
    const answer = await call("GET", "/nfts/marketplace/browse", alice);
    assert.equal(answer.status, 200);
    const { nfts, stats, pagination } = answer.body.data;
    assert.deepEqual(
      nfts.map((n: any) => n.tokenId),
      [tokens.large, tokens.medium, tokens.small],
    );
    for (const nft of nfts) wireNftSchema.parse(nft);
    assert.equal(pagination.total, 3);
    assert.equal(stats.totalListed, 3);
    // Each listing at 100% of par costs its principal plus the interest accrued so far (a day's on a new note).
    const [largePar, mediumPar, smallPar] = await Promise.all([parNow(tokens.large), parNow(tokens.medium), parNow(tokens.small)]);
    assert.equal(stats.totalValue, formatUsdAmount(largePar + mediumPar + smallPar));
    assert.equal(stats.activeLenders, 1);
    assert.equal(stats.avgRate, 9.5);
    const large = nfts[0];
    assert.equal(large.marketplaceStatus, "listed");
    assert.equal(large.isActive, true);
    assert.equal(large.listingPrice, formatUsdAmount(largePar));
    assert.equal(large.metadata.loanDetails.purpose, "home_improvement");
    assert.equal(large.metadata.loanDetails.interestRate, 13);
    assert.equal(large.ownerAddress, stack.deployment.treasury.toLowerCase());
    assert.equal(large.contractAddress, stack.deployment.contracts.loanNote);
  });

  it("sorts, filters by amount range, amount band, rate band and search, and pages", async () => {
    const ids = async (query: string) => (await call("GET", `/nfts/marketplace/browse?${query}`, alice)).body.data.nfts.map((n: any) => n.tokenId);
    assert.deepEqual(await ids("sort=amount"), [tokens.large, tokens.medium, tokens.small]);
    assert.deepEqual(await ids("sort=interestRate"), [tokens.small, tokens.medium, tokens.large]);
    assert.deepEqual(await ids("sort=termMonths"), [tokens.large, tokens.small, tokens.medium]);
    assert.deepEqual(await ids("minAmount=5000&maxAmount=15000"), [tokens.medium]);
    assert.deepEqual(await ids("amountBand=small,large&sort=amount"), [tokens.large, tokens.small]);
    assert.deepEqual(await ids("rateBand=low"), [tokens.small]);
    assert.deepEqual(await ids("rateBand=high&rateBand=medium&sort=interestRate"), [tokens.medium, tokens.large]);
    assert.deepEqual(await ids("search=business"), [tokens.medium]);
    assert.deepEqual(await ids(`search=%23${tokens.small}`), [tokens.small]);
    const page2 = await call("GET", "/nfts/marketplace/browse?limit=2&page=2", alice);
    assert.deepEqual(
      page2.body.data.nfts.map((n: any) => n.tokenId),
      [tokens.small],
    );
    assert.equal(page2.body.data.pagination.totalPages, 2);
  });

  it("refuses a limit above 100, an unknown sort and a reversed amount range with clear messages", async () => {
    const tooMany = await call("GET", "/nfts/marketplace/browse?limit=101", alice);
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.message, "Limit must be a whole number from 1 to 100");
    const sort = await call("GET", "/nfts/marketplace/browse?sort=cheapest", alice);
    assert.equal(sort.status, 400);
    assert.equal(sort.body.message, "Sort must be one of newest, amount, interestRate, termMonths");
    const range = await call("GET", "/nfts/marketplace/browse?minAmount=9000&maxAmount=100", alice);
    assert.equal(range.body.message, "Minimum amount cannot exceed maximum amount");
  });

  it("serves the same listings as loans at /loans/marketplace/list", async () => {
    const answer = await call("GET", "/loans/marketplace/list?sort=amount", alice);
    assert.equal(answer.status, 200);
    const [first] = answer.body.data.loans;
    assert.equal(first.nftTokenId, tokens.large);
    assert.equal(first.amount, "20000");
    assert.equal(first.listingPrice, formatUsdAmount(await parNow(tokens.large)));
    assert.equal(first.purpose, "home_improvement");
    assert.ok(
      answer.body.data.loans.every((loan: { collateral: unknown }) => loan.collateral === null),
      "unsecured notes carry no collateral",
    );
    assert.equal(answer.body.data.pagination.totalLoans, 3);
  });

  it("shows one note publicly with its terms and listing, and answers 404 or 400 for unknown or malformed ids", async () => {
    const answer = await call("GET", `/nfts/${tokens.medium}`);
    assert.equal(answer.status, 200);
    wireNftSchema.parse(answer.body.data);
    assert.equal(answer.body.data.terms.termMonths, 24);
    assert.equal(answer.body.data.terms.principal, "10000");
    assert.equal(answer.body.data.listingPrice, formatUsdAmount(await parNow(tokens.medium)));
    assert.equal(answer.body.data.listings.length, 1);
    assert.equal((await call("GET", "/nfts/999999")).status, 404);
    const bad = await call("GET", "/nfts/abc");
    assert.equal(bad.status, 400);
    assert.equal(bad.body.message, "NFT id must be a token id (a whole number)");
  });

  it("answers a note's page to a visitor in one request: the note, its order book and its owners, as their own routes do", async () => {
    const [page, note, book, owners] = await Promise.all([
      call("GET", `/nfts/${tokens.medium}/page`),
      call("GET", `/nfts/${tokens.medium}`),
      call("GET", `/orders/note/${tokens.medium}`),
      call("GET", `/nfts/${tokens.medium}/ownership`),
    ]);
    assert.equal(page.status, 200);
    assert.deepEqual(page.body.data.note, note.body.data);
    assert.deepEqual(page.body.data.orderBook, book.body.data);
    assert.deepEqual(page.body.data.ownership, owners.body.data);
    assert.equal((await call("GET", "/nfts/999999/page")).status, 404);
    assert.equal((await call("GET", "/nfts/abc/page")).status, 400);
  });

  it("refuses to buy for a user without approved KYC, or without a verified wallet", async () => {
    const pending = await call("POST", `/nfts/${tokens.small}/buy`, noKyc, { expectedPrice: "3000" });
    assert.equal(pending.status, 403);
    assert.equal(pending.body.message, "KYC verification must be approved before you can buy notes");
    const walletless = await call("POST", `/nfts/${tokens.small}/buy`, noWallet, { expectedPrice: "3000" });
    assert.equal(walletless.status, 400);
    assert.equal(walletless.body.message, "Link and verify a wallet in your profile first");
  });

  it("refuses a buy at a price other than the listing's, naming the current price", async () => {
    const answer = await call("POST", `/nfts/${tokens.small}/buy`, alice, { expectedPrice: "2500" });
    assert.equal(answer.status, 409);
    assert.equal(answer.body.message, `The price of this note changed to ${displayUsd(await parNow(tokens.small))}. Please review it before buying.`);
  });

  it("refuses a buy from a wallet that cannot pay with a 400 naming the price and the balance, and answers no permit", async () => {
    const poor = await makeUser(stack.api, { kyc: "approved", wallet: true });
    // The wallet holds a cent less than the note's price now (its principal plus the interest accrued).
    const price = await parNow(tokens.medium);
    const expectedPrice = formatUsdAmount(price);
    await fund(stack, poor.wallet!.address, price - 10_000n);
    const answer = await call("POST", `/nfts/${tokens.medium}/buy`, poor, { expectedPrice });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, `Your wallet holds ${displayUsd(price - 10_000n)} in test dollars; this note costs ${displayUsd(price)}`);
    assert.equal(answer.body.data, null, "no permit, no call");
    const signed = await call("POST", `/nfts/${tokens.medium}/buy`, poor, { expectedPrice, signature: `0x${"1b".repeat(65)}`, deadline: 1_900_000_000 });
    assert.equal(signed.status, 400, "a signature sent along changes nothing");
    assert.equal(signed.body.message, answer.body.message);
    assert.equal(signed.body.data, null);
    // A cent more and the wallet holds the price exactly: enough to buy.
    await fund(stack, poor.wallet!.address, 10_000n);
    const exact = await call("POST", `/nfts/${tokens.medium}/buy`, poor, { expectedPrice });
    assert.equal(exact.status, 200, exact.body?.message);
    assert.equal(exact.body.data.permit.message.value, price.toString());
  });

  it("pins the buy permit's deadline to 30 minutes after the chain's latest block", async () => {
    // The chain runs a day ahead of the server's clock, so a deadline from the wrong clock shows.
    await stack.rpc("evm_increaseTime", [86_400]);
    await stack.rpc("evm_mine", []);
    const head = await stack.chain.getBlock({ blockTag: "latest" });
    const answer = await call("POST", `/nfts/${tokens.medium}/buy`, alice, { expectedPrice: formatUsdAmount(await parNow(tokens.medium)) });
    assert.equal(answer.status, 200, answer.body?.message);
    assert.equal((await stack.chain.getBlock({ blockTag: "latest" })).number, head.number, "no block was mined while the server answered");
    assert.equal(answer.body.data.deadline, String(head.timestamp + 1_800n));
    assert.equal(answer.body.data.permit.message.deadline, String(head.timestamp + 1_800n));
    assert.equal(answer.body.data.call, null, "nothing to send before the permit is signed");
  });

  it("buys a note through a permit and one buyWithPermit transaction; the mirror shows the sale and the owner history", async () => {
    // A day later on the chain, the par price carries two days' interest.
    const price = await parNow(tokens.small);
    const hash = await buyAs(alice, tokens.small, formatUsdAmount(price));
    assert.match(hash, /^0x[0-9a-f]{64}$/);
    await synced();
    const browse = await call("GET", "/nfts/marketplace/browse", bob);
    assert.deepEqual(
      browse.body.data.nfts.map((n: any) => n.tokenId),
      [tokens.large, tokens.medium],
    );
    const ownership = await call("GET", `/nfts/${tokens.small}/ownership`);
    assert.equal(ownership.status, 200);
    assert.deepEqual(
      ownership.body.data.history.map((h: any) => h.kind),
      ["mint", "sale"],
    );
    assert.equal(ownership.body.data.currentOwner, alice.wallet!.address.toLowerCase());
    assert.deepEqual(ownership.body.data.previousOwners, [stack.deployment.treasury.toLowerCase()]);
    // The note's page names the sale's parties as the chain does: the treasury sold, Alice bought, the fee was the marketplace's.
    const feeBps = await stack.chain.readContract({ address: stack.deployment.contracts.marketplace as Address, abi: noteMarketplaceAbi, functionName: "feeBps" });
    const page = (await call("GET", `/nfts/${tokens.small}`)).body.data;
    assert.deepEqual(
      page.sales.map((s: any) => [s.seller, s.buyer, s.price, s.fee, s.txHash]),
      [[stack.deployment.treasury.toLowerCase(), alice.wallet!.address.toLowerCase(), formatUsdAmount(price), formatUsdAmount((price * BigInt(feeBps)) / 10_000n), hash]],
    );
    const again = await call("POST", `/nfts/${tokens.small}/buy`, bob, { expectedPrice: "3000" });
    assert.equal(again.status, 409);
    assert.equal(again.body.message, "This note is not listed for sale");
    const never = await call("POST", "/nfts/999999/buy", bob, { expectedPrice: "3000" });
    assert.deepEqual([never.status, never.body.message], [409, "This note is not listed for sale"], "a note never minted is not for sale either");
  });

  it("lets only the holder list: answers the listing to sign and the one-time approval; an on-chain listing reprices, and only its seller unlists", async () => {
    const notMine = await call("PUT", `/nfts/${tokens.small}/list`, bob, { listingPrice: "3100" });
    assert.equal(notMine.status, 403);
    assert.equal(notMine.body.message, "You do not own this note");
    const zero = await call("PUT", `/nfts/${tokens.small}/list`, alice, { listingPrice: "0" });
    assert.equal(zero.body.message, "Listing price must be greater than 0");
    const huge = await call("PUT", `/nfts/${tokens.small}/list`, alice, { listingPrice: "99999999999999" });
    assert.equal(huge.status, 400);
    assert.equal(huge.body.message, "Listing price is too high");
    // The marketplace keeps a price in 64 bits of micro-dollars: 2^64 - 1 is the highest it takes.
    const highest = await call("PUT", `/nfts/${tokens.small}/list`, alice, { listingPrice: "18446744073709.551615" });
    assert.equal(highest.status, 200, highest.body?.message);
    const above = await call("PUT", `/nfts/${tokens.small}/list`, alice, { listingPrice: "18446744073709.551616" });
    assert.deepEqual([above.status, above.body.message], [400, "Listing price is too high"]);
    const listing = await call("PUT", `/nfts/${tokens.small}/list`, alice, { listingPrice: "3100" });
    assert.equal(listing.status, 200);
    // A signature to make, no listing transaction: only the approval a first listing needs.
    assert.equal(listing.body.data.typedData.primaryType, "Listing");
    assert.equal(listing.body.data.typedData.message.price, "3100000000");
    assert.equal(listing.body.data.calls, undefined);
    assert.equal(listing.body.data.approval.to.toLowerCase(), stack.deployment.contracts.loanNote.toLowerCase());
    await send(alice, listing.body.data.approval);
    assert.equal((await call("PUT", `/nfts/${tokens.small}/list`, alice, { listingPrice: "3100" })).body.data.approval, null);
    // The contract's own listing still works beside the signed ones, and the API shows it.
    await listOnChain(stack, alice.wallet!, tokens.small, 3_100_000_000n);
    await listOnChain(stack, alice.wallet!, tokens.small, 3_200_000_000n, true);
    await synced();
    const shown = await call("GET", `/nfts/${tokens.small}`);
    assert.equal(shown.body.data.listingPrice, "3200");
    const otherUnlist = await call("PUT", `/nfts/${tokens.small}/unlist`, bob);
    assert.equal(otherUnlist.status, 403);
    assert.equal(otherUnlist.body.message, "Only the seller can unlist this note");
  });

  it("lets the seller unlist with one cancel call, after which the note shows unlisted and unlisting again is refused", async () => {
    const mediumOwner = await call("GET", `/nfts/${tokens.medium}`);
    assert.equal(mediumOwner.body.data.sellerAddress, stack.deployment.treasury.toLowerCase());
    await listOnChain(stack, alice.wallet!, tokens.small, 3_300_000_000n, true);
    const unlist = await call("PUT", `/nfts/${tokens.small}/unlist`, alice);
    assert.equal(unlist.status, 200);
    await send(alice, unlist.body.data.call);
    await synced();
    const shown = await call("GET", `/nfts/${tokens.small}`);
    assert.equal(shown.body.data.marketplaceStatus, "unlisted");
    assert.deepEqual(
      shown.body.data.listings.map((l: any) => l.status),
      ["sold", "cancelled"],
    );
    const again = await call("PUT", `/nfts/${tokens.small}/unlist`, alice);
    assert.equal(again.status, 400);
    assert.equal(again.body.message, "This note is not listed for sale");
    const never = await call("PUT", "/nfts/999999/unlist", alice);
    assert.deepEqual([never.status, never.body.message], [400, "This note is not listed for sale"], "a note never minted has no listing to cancel");
    // Listed again for the stale-listing test that follows.
    await listOnChain(stack, alice.wallet!, tokens.small, 3_200_000_000n);
    await synced();
  });

  it("refuses a stale listing with a clear message when the note moved after it was listed", async () => {
    // The mirror still shows the listing while the indexer is paused; the chain knows better.
    await indexer.stop();
    const transfer = await call("POST", `/nfts/${tokens.small}/transfer`, alice, { fromAddress: alice.wallet!.address, toAddress: bob.wallet!.address });
    assert.equal(transfer.status, 200, transfer.body.message);
    assert.equal(transfer.body.data.kind, "transfer");
    await send(alice, transfer.body.data.call);
    const stale = await call("POST", `/nfts/${tokens.small}/buy`, bob, { expectedPrice: "3200" });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.message, "This listing is stale: the note has moved since it was listed, so it can no longer be bought");
    indexer = startIndexer({ db: stack.api.database.db, rpcUrl: stack.anvil.rpcUrl, deployment: stack.deployment, pollIntervalMs: 100 });
    await synced();
    const shown = await call("GET", `/nfts/${tokens.small}`);
    assert.equal(shown.body.data.marketplaceStatus, "unlisted");
    assert.equal(shown.body.data.ownerAddress, bob.wallet!.address.toLowerCase());
  });

  it("moves a note into the vault and back only for its depositor, with the reason in the transaction", async () => {
    const vault = stack.deployment.contracts.vault;
    const fromOther = await call("POST", `/nfts/${tokens.small}/transfer`, alice, { fromAddress: alice.wallet!.address, toAddress: vault });
    assert.equal(fromOther.status, 403);
    const missing = await call("POST", `/nfts/${tokens.small}/transfer`, bob, { fromAddress: "", toAddress: vault });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.message, "Wallet address is required");
    const deposit = await call("POST", `/nfts/${tokens.small}/transfer`, bob, { fromAddress: bob.wallet!.address, toAddress: vault, reason: "safekeeping" });
    assert.equal(deposit.body.data.kind, "deposit");
    assert.equal(deposit.body.message, "NFT transfer initiated successfully!");
    const depositHash = await send(bob, deposit.body.data.call);
    const tx = await stack.chain.getTransaction({ hash: depositHash });
    assert.ok(tx.input.includes(Buffer.from("safekeeping").toString("hex")));
    await synced();
    const portfolio = await call("GET", "/nfts/my-portfolio", bob);
    const held = portfolio.body.data.nfts.find((n: any) => n.tokenId === tokens.small);
    assert.equal(held.inVault, true);
    assert.equal(held.marketplaceStatus, "vaulted");
    assert.equal(portfolio.body.data.vaultHistory[0].kind, "deposit");
    const listVaulted = await call("PUT", `/nfts/${tokens.small}/list`, bob, { listingPrice: "3000" });
    assert.equal(listVaulted.body.message, "This note is in the vault: withdraw it before listing or transferring it");
    const strangerLists = await call("PUT", `/nfts/${tokens.small}/list`, alice, { listingPrice: "3000" });
    assert.deepEqual([strangerLists.status, strangerLists.body.message], [403, "You do not own this note"], "only the depositor hears the note is in the vault");
    const stranger = await call("POST", `/nfts/${tokens.small}/transfer`, alice, { fromAddress: vault, toAddress: alice.wallet!.address });
    assert.equal(stranger.status, 403);
    assert.equal(stranger.body.message, "Only the account that deposited this note can withdraw it");
    // The depositor may have the note sent to another wallet: the vault's withdraw names that wallet, not the caller's.
    const elsewhere = await call("POST", `/nfts/${tokens.small}/transfer`, bob, { fromAddress: vault, toAddress: alice.wallet!.address });
    assert.equal(elsewhere.status, 200, elsewhere.body.message);
    assert.deepEqual([elsewhere.body.data.kind, elsewhere.body.data.from, elsewhere.body.data.to], ["withdraw", vault.toLowerCase(), alice.wallet!.address.toLowerCase()]);
    assert.equal(elsewhere.body.data.call.to.toLowerCase(), vault.toLowerCase());
    const sent = decodeFunctionData({ abi: noteVaultAbi, data: elsewhere.body.data.call.data });
    assert.deepEqual([sent.functionName, sent.args[0], (sent.args[1] as string).toLowerCase()], ["withdraw", BigInt(tokens.small), alice.wallet!.address.toLowerCase()]);
    const withdraw = await call("POST", `/nfts/${tokens.small}/transfer`, bob, { fromAddress: vault, toAddress: bob.wallet!.address, reason: "to sell" });
    assert.equal(withdraw.body.data.kind, "withdraw");
    await send(bob, withdraw.body.data.call);
    await synced();
    const ownership = await call("GET", `/nfts/${tokens.small}/ownership`);
    assert.deepEqual(
      ownership.body.data.history.map((h: any) => h.kind),
      ["mint", "sale", "transfer", "vault_deposit", "vault_withdraw"],
    );
    // Out of the vault: the position is closed, so the note is in bob's wallet again and may be listed.
    const withdrawn = (await call("GET", "/nfts/my-portfolio", bob)).body.data.nfts.find((n: any) => n.tokenId === tokens.small);
    assert.equal(withdrawn.inVault, false);
    assert.equal(withdrawn.marketplaceStatus, "unlisted");
    const shown = (await call("GET", `/nfts/${tokens.small}`)).body.data;
    assert.equal(shown.inVault, false);
    assert.equal(shown.ownerAddress, bob.wallet!.address.toLowerCase());
    const listable = await call("PUT", `/nfts/${tokens.small}/list`, bob, { listingPrice: "3000" });
    assert.equal(listable.status, 200, listable.body.message);
  });

  it("shows the holder's notes, the borrower's notes of their loans, and repayments waiting with the call that withdraws them", async () => {
    // Sent with a wallet's headroom over the estimate: a repayment's cost moves with the block's time.
    const note = stack.deployment.contracts.loanNote as Address;
    await send(borrower, { to: stack.deployment.contracts.stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [note, maxUint256] }) });
    await send(borrower, { to: note, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "repay", args: [BigInt(tokens.small), 100n * USD] }) });
    await synced();
    const bobs = await call("GET", "/nfts/my-portfolio", bob);
    assert.equal(bobs.status, 200);
    assert.equal(bobs.body.data.credits.available, "100");
    assert.equal(bobs.body.data.stats.totalLoans, 1);
    assert.equal(bobs.body.data.nfts[0].totalRepaid, "100");
    // The borrower paid; Bob, who holds the note, was credited.
    const repayments = (await call("GET", `/nfts/${tokens.small}`)).body.data.repayments;
    assert.deepEqual(
      repayments.map((r: any) => [r.payer, r.beneficiary, r.amount, r.totalRepaid]),
      [[borrower.wallet!.address.toLowerCase(), bob.wallet!.address.toLowerCase(), "100", "100"]],
    );
    const withdraw = bobs.body.data.credits.withdrawCall;
    assert.equal(withdraw.to, note);
    await send(bob, withdraw as { to: string; data: Hex });
    await synced();
    const after = await call("GET", "/nfts/my-portfolio", bob);
    assert.equal(after.body.data.credits.available, "0");
    assert.equal(after.body.data.credits.withdrawCall, null);
    const borrowers = await call("GET", "/nfts/my-portfolio", borrower);
    assert.deepEqual(borrowers.body.data.loanNotes.map((n: any) => n.tokenId).sort(), [tokens.small, tokens.medium, tokens.large].sort());
    assert.equal(borrowers.body.data.nfts.length, 0);
    assert.equal((await call("GET", "/nfts/my-portfolio")).status, 401);
  });

  it("buys a note by its on-chain listing while there is one, else by its signed listing: the buyer's permit and fillListingWithPermit pay the signer the signed price", async () => {
    // Bob holds the small note since the stale-listing test, and it has no listing on-chain.
    const [seller, buyer] = [bob, alice];
    const loanNote = stack.deployment.contracts.loanNote as Address;
    const marketplace = stack.deployment.contracts.marketplace as Address;
    // Listed on-chain as well (which lets the marketplace move Bob's notes, as a signed listing needs too), the note
    // sells by that listing, at its price; cancelled there, by the signed one.
    await listOnChain(stack, seller.wallet!, tokens.small, 3_500_000_000n);
    const published = await publishOrder(stack.api, seller, { kind: "listing", tokenId: tokens.small, priceKind: "fixed", price: "3400" });
    const onChain = await call("POST", `/nfts/${tokens.small}/buy`, buyer, { expectedPrice: "3500" });
    assert.equal(onChain.status, 200, onChain.body?.message);
    assert.deepEqual([onChain.body.data.price, onChain.body.data.orderHash], ["3500", null]);
    assert.equal(decodeFunctionData({ abi: noteMarketplaceAbi, data: onChain.body.data.calls.buy.data }).functionName, "buy");
    await send(seller, { to: marketplace, data: encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "cancel", args: [BigInt(tokens.small)] }) });
    const own = await call("POST", `/nfts/${tokens.small}/buy`, seller, { expectedPrice: "3400" });
    assert.deepEqual([own.status, own.body.message], [400, "You cannot buy your own note"]);

    const answer = await call("POST", `/nfts/${tokens.small}/buy`, buyer, { expectedPrice: "3400" });
    assert.equal(answer.status, 200, answer.body?.message);
    assert.equal(answer.body.data.seller, seller.wallet!.address.toLowerCase());
    assert.equal(answer.body.data.orderHash, published.hash);
    assert.equal(answer.body.data.permit.message.value, "3400000000");
    const fill = decodeFunctionData({ abi: noteMarketplaceAbi, data: answer.body.data.calls.buy.data });
    assert.equal(fill.functionName, "fillListing");
    assert.equal(fill.args[1], published.signature);
    assert.equal(fill.args[2], 3_400_000_000n);

    const dollars = (who: TestUser) =>
      stack.chain.readContract({ address: stack.deployment.contracts.stablecoin as Address, abi: testDollarAbi, functionName: "balanceOf", args: [who.wallet!.address] });
    const feeBps = await stack.chain.readContract({ address: marketplace, abi: noteMarketplaceAbi, functionName: "feeBps" });
    const [sellerBefore, buyerBefore] = [await dollars(seller), await dollars(buyer)];
    await buyAs(buyer, tokens.small, "3400");
    const ownerAfter = await stack.chain.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "ownerOf", args: [BigInt(tokens.small)] });
    assert.equal(ownerAfter.toLowerCase(), buyer.wallet!.address.toLowerCase());
    assert.equal(buyerBefore - (await dollars(buyer)), 3_400_000_000n);
    assert.equal((await dollars(seller)) - sellerBefore, 3_400_000_000n - (3_400_000_000n * BigInt(feeBps)) / 10_000n);
  });

  it("refuses a buy by a signed listing once the chain's latest block is at its expiry, as the fill would run in a later block", async () => {
    // Alice holds the small note since the signed-listing sale, with no listing on-chain.
    const published = await publishOrder(stack.api, alice, { kind: "listing", tokenId: tokens.small, priceKind: "fixed", price: "100", expiresInDays: 1 });
    const [order] = await stack.api.database.db.select().from(orders).where(eq(orders.hash, published.hash));
    const buyAt = async (second: bigint) => {
      await stack.rpc("evm_setNextBlockTimestamp", [Number(second)]);
      await stack.rpc("evm_mine", []);
      return call("POST", `/nfts/${tokens.small}/buy`, bob, { expectedPrice: "100" });
    };
    const lastSecond = await buyAt(order!.expiry - 1n);
    assert.equal(lastSecond.status, 200, lastSecond.body?.message);
    assert.equal(lastSecond.body.data.orderHash, published.hash);
    const atExpiry = await buyAt(order!.expiry);
    assert.deepEqual([atExpiry.status, atExpiry.body.message, atExpiry.body.data], [409, NFT_ANSWERS.expired, null]);
  });
});
