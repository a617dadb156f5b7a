import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import { createWalletClient, encodeFunctionData, http, maxUint256, parseSignature, serializeSignature, type Address, type Hex } from "viem";
import { foundry } from "viem/chains";
import { privateKeyToAccount, generatePrivateKey, type PrivateKeyAccount } from "viem/accounts";
import { loanNoteAbi, noteMarketplaceAbi, testDollarAbi } from "#domain/abis";
import { ORDER_TYPES, orderDomain, parPrice } from "#domain/orders";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { orders, users } from "#db/schema";
import { testContracts } from "../testing/contracts";
import { formatUsdAmount, parseUsd } from "#domain/money";
import { fund, makeUser, sendAs, startLoanStack, type LoanStack, type TestUser } from "#testing/loanStack";
import { matchingOffersSchema, myOrdersSchema, orderBookSchema, orderSubmissionSchema } from "#domain/wire/order";
import { DEFAULT_RATE_LIMITS } from "../http/rateLimit";
import { AppError } from "../http/errors";
import { createOrdersService } from "./service";
import { ORDER_ANSWERS } from "./texts";
import { ordersOperations } from "../openapi/operations/orders";

/** The answer schema the OpenAPI document gives an order route. */
function documented(key: keyof typeof ordersOperations.operations) {
  const data = ordersOperations.operations[key]?.data;
  assert.ok(data, `${key} documents an answer`);
  return data;
}

/**
 * The order book's API against real Postgres, a private anvil with the contracts and the real indexer: orders are
 * asked for, signed with the users' keys as a wallet would, published, read back and filled on-chain.
 */
describe("signed orders: typed data, publishing, the book and its refusals", { timeout: 300_000 }, () => {
  let stack: LoanStack;
  let admin: TestUser, borrower: TestUser, alice: TestUser, bob: TestUser, noKyc: TestUser;
  let noteA: bigint, noteB: bigint;
  const USD = 1_000_000n;
  const call = (method: string, path: string, user?: TestUser, body?: unknown) => stack.api.call(method, path, { token: user?.token, body });
  const send = (user: TestUser, c: { to: string; data: string }) => sendAs(stack, user.wallet!, c);
  const marketplace = () => stack.deployment.contracts.marketplace as Address;
  const synced = () => stack.indexer!.caughtUp();

  /** The typed data as a wallet takes it: uints back to bigint. */
  function typed(t: any) {
    const message = Object.fromEntries(Object.entries(t.message).map(([k, v]) => [k, /^0x/.test(v as string) ? v : BigInt(v as string)]));
    return { domain: t.domain, types: t.types, primaryType: t.primaryType, message } as const;
  }

  async function signed(user: TestUser, body: Record<string, unknown>) {
    const answer = await call("POST", "/orders/typed-data", user, body);
    assert.equal(answer.status, 200, answer.body?.message);
    documented("POST /api/orders/typed-data").parse(answer.body.data);
    const t = typed(answer.body.data.typedData);
    const signature = await user.wallet!.signTypedData(t as never);
    return { kind: body.kind as string, message: answer.body.data.typedData.message as Record<string, string>, signature, typedData: t };
  }

  async function publish(user: TestUser, order: { kind: string; message: unknown; signature: string }) {
    const answer = await call("POST", "/orders", user, { kind: order.kind, message: order.message, signature: order.signature });
    if (answer.status === 201) documented("POST /api/orders").parse(answer.body.data);
    return answer;
  }

  /** Signs `message` of `kind` with `key` directly (no typed-data route): what an attacker or another client would do. */
  async function signAs(key: PrivateKeyAccount, kind: "listing" | "offer" | "matchingOffer", message: Record<string, string>) {
    const primaryType = ({ listing: "Listing", offer: "Offer", matchingOffer: "MatchingOffer" } as const)[kind];
    const m = Object.fromEntries(Object.entries(message).map(([k, v]) => [k, /^0x/.test(v) ? v : BigInt(v)]));
    return key.signTypedData({ domain: orderDomain(31337, marketplace()), types: ORDER_TYPES, primaryType, message: m as never });
  }

  async function requestAndApprove(amount: string, interestRate: number, termMonths: number): Promise<bigint> {
    const requested = await call("POST", "/loans/request", borrower, { amount, interestRate, termMonths, purpose: "business" });
    assert.equal(requested.status, 201, requested.body?.message);
    const approved = await call("PUT", `/admin/loans/${requested.body.data._id}/approve`, admin, {});
    assert.equal(approved.status, 200, approved.body?.message);
    return BigInt(requested.body.data.loanNumber ?? approved.body.data.loanNumber);
  }

  async function approveDollars(user: TestUser, amount: bigint) {
    await send(user, { to: stack.deployment.contracts.stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [marketplace(), amount] }) });
  }

  /** What settles the note now, as a par price reads it. */
  async function split(tokenId: bigint): Promise<{ principal: bigint; interest: bigint }> {
    const state = await stack.chain.readContract({ address: stack.deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "noteStateOf", args: [tokenId] });
    return { principal: state.outstanding, interest: state.interest };
  }

  /** A KYC-approved user whose verified wallet is a test contract wallet (EIP-1271) that `owner` signs for. */
  async function contractWalletUser(contract: "OwnerWallet" | "ReceivingWallet") {
    const owner = privateKeyToAccount(generatePrivateKey());
    const { abi, bytecode } = testContracts()[contract];
    const deployer = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.deployer), chain: foundry, transport: http(stack.anvil.rpcUrl) });
    const receipt = await stack.chain.waitForTransactionReceipt({ hash: await deployer.deployContract({ abi, bytecode, args: [owner.address] }) });
    const address = receipt.contractAddress!.toLowerCase();
    const user = await makeUser(stack.api, { kyc: "approved" });
    await stack.api.database.db.update(users).set({ walletAddress: address }).where(eq(users.id, user.id));
    return { user, owner, address };
  }

  const storedBy = async (signer: string) => (await stack.api.database.db.select().from(orders).where(eq(orders.signer, signer.toLowerCase()))).map((o) => o.hash);

  before(async () => {
    // The publishing limit as deployed (30 a minute per user), not the harness's relaxed one.
    stack = await startLoanStack({ indexer: true, rateLimits: { orderPublish: DEFAULT_RATE_LIMITS.orderPublish } });
    [admin, borrower, alice, bob, noKyc] = await Promise.all([
      makeUser(stack.api, { admin: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "approved", wallet: true }),
      makeUser(stack.api, { kyc: "pending", wallet: true }),
    ]);
    await fund(stack, alice.wallet!.address, 50_000n * USD);
    await fund(stack, bob.wallet!.address, 50_000n * USD);
    await fund(stack, borrower.wallet!.address, 5_000n * USD);
    noteA = await requestAndApprove("3000", 12, 12);
    noteB = await requestAndApprove("5000", 9, 24);
    await synced();
    // Alice buys note A from the treasury's on-chain listing, so she holds one note herself.
    // At the price the chain quotes now: 100% of par is the principal plus the interest accrued (a day's, on a new note).
    const first = await call("POST", `/nfts/${noteA}/buy`, alice, { expectedPrice: formatUsdAmount(parPrice(await split(noteA), 10_000n)) });
    assert.equal(first.status, 200, first.body?.message);
    await send(alice, first.body.data.calls.approve);
    await send(alice, first.body.data.calls.buy);
    // The marketplace may move her notes (a signed listing's fill transfers it).
    await send(alice, { to: stack.deployment.contracts.loanNote, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "setApprovalForAll", args: [marketplace(), true] }) });
    await synced();
  });

  after(async () => {
    await stack?.close();
  });

  let listing: Awaited<ReturnType<typeof signed>>;
  let listingHash: string;

  it("publishes a par listing signed from the API's typed data; its hash is the contract's and the book shows its price now", async () => {
    listing = await signed(alice, { kind: "listing", tokenId: noteA.toString(), priceKind: "par", parBps: 9900 });
    assert.equal(listing.message.seller, alice.wallet!.address.toLowerCase());
    assert.equal(listing.message.counter, "0");
    const answer = await publish(alice, listing);
    assert.equal(answer.status, 201, answer.body?.message);
    const order = answer.body.data;
    const onChain = await stack.chain.readContract({ address: marketplace(), abi: noteMarketplaceAbi, functionName: "hashListing", args: [listing.typedData.message as never] });
    assert.equal(order.hash, onChain.toLowerCase());
    listingHash = order.hash;
    assert.equal(order.status, "open");
    assert.equal(order.priceKind, "par");
    assert.equal(order.parBps, 9900);
    assert.equal(order.priceNow, formatUsdAmount(parPrice(await split(noteA), 9900n)));
    const book = await call("GET", `/orders/note/${noteA}`);
    assert.equal(book.status, 200);
    assert.deepEqual(
      book.body.data.listings.map((o: any) => o.hash),
      [listingHash],
    );
    const again = await publish(alice, listing);
    assert.equal(again.status, 409, "the same signed order twice");
  });

  let offerHash: string;
  let matchingHash: string;

  it("publishes an offer as unfunded until the buyer approves the marketplace, then it is the note's best offer", async () => {
    const offer = await signed(bob, { kind: "offer", tokenId: noteA.toString(), priceKind: "par", parBps: 9500 });
    const answer = await publish(bob, offer);
    assert.equal(answer.status, 201, answer.body?.message);
    offerHash = answer.body.data.hash;
    const onChain = await stack.chain.readContract({ address: marketplace(), abi: noteMarketplaceAbi, functionName: "hashOffer", args: [offer.typedData.message as never] });
    assert.equal(offerHash, onChain.toLowerCase());
    assert.equal(answer.body.data.status, "unfunded");
    assert.match(answer.body.data.statusReason, /approved/);
    assert.equal((await call("GET", `/orders/note/${noteA}`)).body.data.offers.length, 0, "an unfunded offer is hidden");
    await approveDollars(bob, maxUint256);
    const book = (await call("GET", `/orders/note/${noteA}`)).body.data;
    assert.deepEqual(
      book.offers.map((o: any) => o.hash),
      [offerHash],
    );
    assert.equal(book.bestOffer.hash, offerHash);
    assert.equal(book.bestOffer.priceNow, formatUsdAmount(parPrice(await split(noteA), 9500n)));
  });

  it("publishes a matching offer; the book of a note inside its ranges shows it with that note's price", async () => {
    const offer = await signed(bob, { kind: "matchingOffer", priceKind: "par", parBps: 9000, budget: "20000", ranges: { minRateBps: 1000, maxTermLeft: 400 * 86_400 } });
    const answer = await publish(bob, offer);
    assert.equal(answer.status, 201, answer.body?.message);
    matchingHash = answer.body.data.hash;
    const onChain = await stack.chain.readContract({ address: marketplace(), abi: noteMarketplaceAbi, functionName: "hashMatchingOffer", args: [offer.typedData.message as never] });
    assert.equal(matchingHash, onChain.toLowerCase());
    assert.equal(answer.body.data.status, "open");
    // Left out, the least term left is a second: a matured note is never bought as a running one.
    assert.deepEqual(answer.body.data.ranges, { minRateBps: 1000, maxRateBps: null, minTermLeft: 1, maxTermLeft: 400 * 86_400, minOutstanding: "0", maxOutstanding: null });
    const all = (await call("GET", "/orders/matching")).body.data.matchingOffers;
    assert.deepEqual(
      all.map((o: any) => o.hash),
      [matchingHash],
    );
    const bookA = (await call("GET", `/orders/note/${noteA}`)).body.data;
    assert.deepEqual(
      bookA.matchingOffers.map((o: any) => [o.hash, o.tokenId]),
      [[matchingHash, noteA.toString()]],
    );
    assert.equal(bookA.bestOffer.hash, offerHash, "95% beats 90%");
    const bookB = (await call("GET", `/orders/note/${noteB}`)).body.data;
    assert.equal(bookB.matchingOffers.length, 0, "note B's 9% rate is below the range");
  });

  it("shows a note listed only by signature on the marketplace, at its price now, with each note's best offer", async () => {
    const browse = (await call("GET", "/nfts/marketplace/browse", bob)).body.data.nfts;
    const a = browse.find((n: any) => n.tokenId === noteA.toString());
    assert.ok(a, "note A is on the market by Alice's signed listing alone");
    assert.equal(a.marketplaceStatus, "listed");
    assert.equal(a.signedListing.hash, listingHash);
    assert.equal(a.listingPrice, formatUsdAmount(parPrice(await split(noteA), 9900n)));
    assert.equal(a.sellerAddress, alice.wallet!.address.toLowerCase());
    assert.deepEqual([a.bestOffer.hash, a.bestOffer.kind], [offerHash, "offer"]);
    const b = browse.find((n: any) => n.tokenId === noteB.toString());
    // The treasury lists each new note at 100% of par by its signature (api/src/treasury/parListing.ts).
    assert.deepEqual([b.signedListing.seller, b.signedListing.parBps], [stack.deployment.treasury.toLowerCase(), 10_000]);
    assert.equal(b.signedListing.priceNow, formatUsdAmount(parPrice(await split(noteB), 10_000n)));
    assert.equal(b.bestOffer, null);
    const loans = (await call("GET", "/loans/marketplace/list", bob)).body.data.loans;
    assert.equal(loans.find((l: any) => l.nftTokenId === noteA.toString()).bestOffer.hash, offerHash);
  });

  // The OpenAPI answer-sample test (api/src/openapi/router.test.ts) runs without a chain and leaves these here.
  it("answers in the wire shapes the app parses and the OpenAPI document names (domain/wire/order.ts)", async () => {
    orderBookSchema.parse((await call("GET", `/orders/note/${noteA}`)).body.data);
    myOrdersSchema.parse((await call("GET", "/orders/mine", alice)).body.data);
    matchingOffersSchema.parse((await call("GET", "/orders/matching")).body.data);
    documented("GET /api/orders/note/{tokenId}").parse((await call("GET", `/orders/note/${noteA}`)).body.data);
    documented("GET /api/orders/mine").parse((await call("GET", "/orders/mine", alice)).body.data);
    documented("GET /api/orders/matching").parse((await call("GET", "/orders/matching")).body.data);
  });

  it("shows each user only their own orders, and the offers on the notes they hold", async () => {
    const mineAlice = (await call("GET", "/orders/mine", alice)).body.data;
    assert.deepEqual(
      mineAlice.made.map((o: any) => o.hash),
      [listingHash],
    );
    assert.deepEqual(
      mineAlice.received.map((o: any) => o.hash),
      [offerHash, matchingHash],
    );
    const mineBob = (await call("GET", "/orders/mine", bob)).body.data;
    assert.deepEqual(mineBob.made.map((o: any) => o.hash).sort(), [offerHash, matchingHash].sort());
    assert.deepEqual(mineBob.received, []);
    const other = (await call("GET", "/orders/mine", noKyc)).body.data;
    assert.deepEqual(other, { made: [], received: [] });
    assert.equal((await call("GET", "/orders/mine")).status, 401);
  });

  it("refuses an order signed by someone else's key, or someone else's order sent as one's own", async () => {
    const mallory = privateKeyToAccount(generatePrivateKey());
    // Bob's message naming Alice as seller, signed by another key: the signature is not Alice's.
    const forged = { ...listing.message, salt: "77" };
    const wrongKey = await publish(alice, { kind: "listing", message: forged, signature: await signAs(mallory, "listing", forged) });
    assert.equal(wrongKey.status, 400);
    assert.equal(wrongKey.body.message, ORDER_ANSWERS.badSignature);
    // Alice's genuine order, published by Bob: the signer is not Bob's wallet.
    const fresh = { ...listing.message, salt: "78" };
    const stolen = await publish(bob, { kind: "listing", message: fresh, signature: await signAs(alice.wallet!, "listing", fresh) });
    assert.equal(stolen.status, 400);
    assert.equal(stolen.body.message, ORDER_ANSWERS.notYourWallet);
    // A changed message under a real signature.
    const tampered = await publish(alice, { kind: "listing", message: { ...listing.message, parBps: "5000" }, signature: listing.signature });
    assert.equal(tampered.status, 400);
    assert.equal(tampered.body.message, ORDER_ANSWERS.badSignature);
  });

  it("refuses compact and high-s signatures as the contract does", async () => {
    const message = { ...listing.message, salt: "79" };
    const sig = await signAs(alice.wallet!, "listing", message);
    const { r, s, yParity } = parseSignature(sig);
    const yParityAndS = BigInt(s) | (BigInt(yParity ?? 0) << 255n);
    const eip2098 = `${r}${yParityAndS.toString(16).padStart(64, "0")}` as Hex;
    const short = await publish(alice, { kind: "listing", message, signature: eip2098 });
    assert.equal(short.status, 400);
    assert.equal(short.body.message, ORDER_ANSWERS.compactSignature);
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const highS = serializeSignature({ r, s: `0x${(n - BigInt(s)).toString(16).padStart(64, "0")}`, yParity: yParity === 0 ? 1 : 0 });
    const high = await publish(alice, { kind: "listing", message, signature: highS });
    assert.equal(high.status, 400);
    assert.equal(high.body.message, ORDER_ANSWERS.highS);
  });

  it("takes an EIP-1271 contract wallet's signature, and refuses one its wallet does not accept", async () => {
    const { user: carol, owner, address: contractWallet } = await contractWalletUser("ReceivingWallet");
    const asked = await call("POST", "/orders/typed-data", carol, { kind: "offer", tokenId: noteB.toString(), parBps: 9700 });
    assert.equal(asked.status, 200, asked.body?.message);
    const message = asked.body.data.typedData.message;
    assert.equal(message.buyer, contractWallet);
    const accepted = await publish(carol, { kind: "offer", message, signature: await signAs(owner, "offer", message) });
    assert.equal(accepted.status, 201, accepted.body?.message);
    assert.equal(accepted.body.data.signer, contractWallet);
    const other = { ...message, salt: "5" };
    const refused = await publish(carol, { kind: "offer", message: other, signature: await signAs(privateKeyToAccount(generatePrivateKey()), "offer", other) });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.message, ORDER_ANSWERS.badSignature);
  });

  it("refuses a contract wallet's offer at 200% of par when the wallet cannot receive the note, and stores nothing", async () => {
    // Its signature is good, so the offer would top the book, yet every fill would revert in safeTransferFrom.
    const { user: dave, owner, address } = await contractWalletUser("OwnerWallet");
    const asked = await call("POST", "/orders/typed-data", dave, { kind: "offer", tokenId: noteB.toString(), parBps: 20_000 });
    assert.equal(asked.status, 200, asked.body?.message);
    const message = asked.body.data.typedData.message;
    const phantom = await publish(dave, { kind: "offer", message, signature: await signAs(owner, "offer", message) });
    assert.deepEqual([phantom.status, phantom.body.message], [400, ORDER_ANSWERS.cannotReceive]);
    const any = await call("POST", "/orders/typed-data", dave, { kind: "matchingOffer", priceKind: "par", parBps: 20_000, budget: "20000" });
    const matching = any.body.data.typedData.message;
    const anyNote = await publish(dave, { kind: "matchingOffer", message: matching, signature: await signAs(owner, "matchingOffer", matching) });
    assert.deepEqual([anyNote.status, anyNote.body.message], [400, ORDER_ANSWERS.cannotReceive]);
    assert.deepEqual(await storedBy(address), []);
  });

  it("refuses a user without approved KYC, an expired order, a stale counter, a non-holder's listing and a stale fixed price", async () => {
    const kyc = await call("POST", "/orders/typed-data", noKyc, { kind: "offer", tokenId: noteA.toString(), parBps: 9000 });
    assert.equal(kyc.status, 403);
    assert.equal(kyc.body.message, ORDER_ANSWERS.kycRequired);
    const head = await stack.chain.getBlock({ blockTag: "latest" });
    const expiredMessage = { ...listing.message, salt: "80", expiry: String(head.timestamp) };
    const expired = await publish(alice, { kind: "listing", message: expiredMessage, signature: await signAs(alice.wallet!, "listing", expiredMessage) });
    assert.equal(expired.status, 400);
    assert.equal(expired.body.message, ORDER_ANSWERS.expired);
    const counterMessage = { ...listing.message, salt: "81", counter: "5" };
    const counter = await publish(alice, { kind: "listing", message: counterMessage, signature: await signAs(alice.wallet!, "listing", counterMessage) });
    assert.equal(counter.status, 400);
    assert.equal(counter.body.message, ORDER_ANSWERS.counter(0n));
    const notMine = await call("POST", "/orders/typed-data", bob, { kind: "listing", tokenId: noteA.toString(), parBps: 9000 });
    assert.equal(notMine.status, 403);
    assert.equal(notMine.body.message, ORDER_ANSWERS.notHolder);
    const bobListing = { ...listing.message, seller: bob.wallet!.address.toLowerCase(), salt: "82" };
    const nonHolder = await publish(bob, { kind: "listing", message: bobListing, signature: await signAs(bob.wallet!, "listing", bobListing) });
    assert.equal(nonHolder.status, 400);
    assert.equal(nonHolder.body.message, ORDER_ANSWERS.notHolder);
    const fixed = await signed(alice, { kind: "listing", tokenId: noteA.toString(), priceKind: "fixed", price: "2900" });
    const staleMessage = { ...fixed.message, changes: String(BigInt(fixed.message.changes) + 1n) };
    const stale = await publish(alice, { kind: "listing", message: staleMessage, signature: await signAs(alice.wallet!, "listing", staleMessage) });
    assert.equal(stale.status, 400);
    assert.equal(stale.body.message, ORDER_ANSWERS.stale(BigInt(fixed.message.changes)));
    const malformed = await call("POST", "/orders", alice, { kind: "listing", message: { seller: "nope" }, signature: "0x00" });
    assert.equal(malformed.status, 400);
  });

  it("refuses an offer on a note its buyer holds, even signed by hand, and an order that runs past 180 days", async () => {
    // Bob's offer on note A as the typed-data route answers it, made Alice's and signed with her key: she holds note A.
    const bobs = await signed(bob, { kind: "offer", tokenId: noteA.toString(), priceKind: "par", parBps: 9000 });
    const own = { ...bobs.message, buyer: alice.wallet!.address.toLowerCase(), salt: "84" };
    const ownOffer = await publish(alice, { kind: "offer", message: own, signature: await signAs(alice.wallet!, "offer", own) });
    assert.deepEqual([ownOffer.status, ownOffer.body.message], [400, ORDER_ANSWERS.ownNote]);
    const asked = await call("POST", "/orders/typed-data", alice, { kind: "offer", tokenId: noteA.toString(), parBps: 9000 });
    assert.deepEqual([asked.status, asked.body.message], [400, ORDER_ANSWERS.ownNote]);

    // The typed data runs exactly the days asked from the chain's clock; a message signed to run longer is refused
    // (a day's slack past the 180 for the time between asking and publishing, not a second more).
    const head = await stack.chain.getBlock({ blockTag: "latest" });
    const longest = await signed(alice, { kind: "listing", tokenId: noteA.toString(), priceKind: "par", parBps: 9900, expiresInDays: 180 });
    assert.equal(longest.message.expiry, String(head.timestamp + 180n * 86_400n));
    const tooLong = { ...listing.message, salt: "85", expiry: String(head.timestamp + 181n * 86_400n + 1n) };
    const refused = await publish(alice, { kind: "listing", message: tooLong, signature: await signAs(alice.wallet!, "listing", tooLong) });
    assert.deepEqual([refused.status, refused.body.message], [400, ORDER_ANSWERS.tooLong(180)]);
    assert.deepEqual(
      (await call("GET", "/orders/mine", alice)).body.data.made.map((o: any) => o.hash),
      [listingHash],
      "nothing refused was stored",
    );
  });

  it("refuses a fixed price of zero, a par offer capped at zero, a par price above 200% and a matching budget below its least price, and takes 200% exactly", async () => {
    const free = { ...listing.message, parBps: "0", price: "0", salt: "86" };
    const freeListing = await publish(alice, { kind: "listing", message: free, signature: await signAs(alice.wallet!, "listing", free) });
    assert.deepEqual([freeListing.status, freeListing.body.message], [400, ORDER_ANSWERS.priceZero]);
    const atDouble = await signed(bob, { kind: "offer", tokenId: noteB.toString(), priceKind: "par", parBps: 20_000 });
    assert.equal(atDouble.message.cap, String(2n * parPrice(await split(noteB), 20_000n)), "the cap defaults to twice the par price today: accrual raises a dirty price between payments");
    const uncapped = { ...atDouble.message, cap: "0", salt: "87" };
    const zeroCap = await publish(bob, { kind: "offer", message: uncapped, signature: await signAs(bob.wallet!, "offer", uncapped) });
    assert.deepEqual([zeroCap.status, zeroCap.body.message], [400, ORDER_ANSWERS.capZero]);
    const above = { ...atDouble.message, parBps: "20001", salt: "88" };
    const tooHigh = await publish(bob, { kind: "offer", message: above, signature: await signAs(bob.wallet!, "offer", above) });
    assert.deepEqual([tooHigh.status, tooHigh.body.message], [400, ORDER_ANSWERS.parBps]);
    // A matching offer at par for notes of $1,000 or more can pay no less than $1,000: a micro-dollar less buys nothing.
    const ranges = { minOutstanding: "1000" };
    const short = await call("POST", "/orders/typed-data", bob, { kind: "matchingOffer", priceKind: "par", parBps: 10_000, budget: "999.999999", ranges });
    assert.deepEqual([short.status, short.body.message], [400, ORDER_ANSWERS.budgetTooSmall]);
    const enough = await signed(bob, { kind: "matchingOffer", priceKind: "par", parBps: 10_000, budget: "1000", ranges });
    const shortBudget = { ...enough.message, budget: String(999_999_999n), salt: "89" };
    const refusedBudget = await publish(bob, { kind: "matchingOffer", message: shortBudget, signature: await signAs(bob.wallet!, "matchingOffer", shortBudget) });
    assert.deepEqual([refusedBudget.status, refusedBudget.body.message], [400, ORDER_ANSWERS.budgetTooSmall]);
    const taken = await publish(bob, atDouble);
    assert.equal(taken.status, 201, taken.body?.message);
    assert.deepEqual([taken.body.data.parBps, taken.body.data.priceNow], [20_000, formatUsdAmount(parPrice(await split(noteB), 20_000n))]);
  });

  it("refuses the treasury's reprice or listing at par of a note it sold, and signs nothing for it", async () => {
    const before = (await call("GET", `/orders/note/${noteA}`)).body.data.listings.map((o: any) => o.hash);
    for (const [path, body] of [
      [`/admin/treasury/notes/${noteA}/price`, { listingPrice: "2500" }],
      [`/admin/treasury/notes/${noteA}/par`, {}],
    ] as const) {
      const answer = await call("PUT", path, admin, body);
      assert.deepEqual([answer.status, answer.body.message], [409, "The treasury does not hold this note"], path);
    }
    const treasurySigned = (await stack.api.database.db.select().from(orders).where(eq(orders.signer, stack.deployment.treasury.toLowerCase()))).filter((o) => o.tokenId === noteA);
    assert.deepEqual(
      treasurySigned.map((o) => o.status),
      ["filled"],
      "only the listing Alice bought it by",
    );
    assert.deepEqual(
      (await call("GET", `/orders/note/${noteA}`)).body.data.listings.map((o: any) => o.hash),
      before,
    );
  });

  it("fills the API's listing on-chain with fillListing; a refresh names what changed, the book drops it and its maker sees it filled", async () => {
    const price = parPrice(await split(noteA), 9900n);
    await send(bob, {
      to: marketplace(),
      data: encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "fillListing", args: [listing.typedData.message as never, listing.signature, price] }),
    });
    const changed = await stack.services.orders.refresh({ tokenIds: [noteA] });
    assert.deepEqual(
      changed.map((c) => [c.order.hash, c.previousStatus, c.order.status]).sort(),
      [
        [listingHash, "open", "filled"],
        [offerHash, "open", "lapsed"],
      ].sort(),
    );
    const owner = await stack.chain.readContract({ address: stack.deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "ownerOf", args: [noteA] });
    assert.equal(owner.toLowerCase(), bob.wallet!.address.toLowerCase());
    const book = (await call("GET", `/orders/note/${noteA}`)).body.data;
    assert.deepEqual(book.listings, []);
    assert.deepEqual(book.offers, [], "Bob's own offer on the note he now holds no longer counts");
    assert.deepEqual(book.matchingOffers, [], "nor does his own matching offer, which the note still fits");
    assert.equal(book.bestOffer, null);
    assert.deepEqual((await call("GET", "/orders/mine", bob)).body.data.received, []);
    const browse = (await call("GET", "/nfts/marketplace/browse", alice)).body.data.nfts;
    assert.ok(!browse.some((n: any) => n.tokenId === noteA.toString()), "a filled listing leaves the market");
    const made = (await call("GET", "/orders/mine", alice)).body.data.made;
    assert.equal(made.find((o: any) => o.hash === listingHash).status, "filled");
    const bobs = (await call("GET", "/orders/mine", bob)).body.data.made;
    assert.equal(bobs.find((o: any) => o.hash === offerHash).status, "lapsed");
  });

  it("counts no offer of a note's depositor while the vault holds it: his old offer stays lapsed and a new one is refused", async () => {
    // Bob holds note A since the fill; his offer and his matching offer on it must not come back once it is vaulted.
    const vault = stack.deployment.contracts.vault;
    const move = async (fromAddress: string, toAddress: string) => {
      await synced();
      const answer = await call("POST", `/nfts/${noteA}/transfer`, bob, { fromAddress, toAddress });
      assert.equal(answer.status, 200, answer.body?.message);
      await send(bob, answer.body.data.call);
    };
    await move(bob.wallet!.address, vault);
    const book = (await call("GET", `/orders/note/${noteA}`)).body.data;
    assert.deepEqual([book.offers, book.matchingOffers, book.bestOffer], [[], [], null]);
    const made = (await call("GET", "/orders/mine", bob)).body.data.made.find((o: any) => o.hash === offerHash);
    assert.deepEqual([made.status, made.statusReason], ["lapsed", "The buyer holds the note"]);
    const asked = await call("POST", "/orders/typed-data", bob, { kind: "offer", tokenId: noteA.toString(), parBps: 9000 });
    assert.deepEqual([asked.status, asked.body.message], [400, ORDER_ANSWERS.ownNote]);
    const own = { ...made.message, salt: "87" };
    const signedByHand = await publish(bob, { kind: "offer", message: own, signature: await signAs(bob.wallet!, "offer", own) });
    assert.deepEqual([signedByHand.status, signedByHand.body.message], [400, ORDER_ANSWERS.ownNote]);
    await move(vault, bob.wallet!.address);
  });

  it("answers PUT /nfts/{id}/list with the listing to sign and PUT /nfts/{id}/unlist with the cancelOrders call", async () => {
    await synced();
    await send(bob, { to: stack.deployment.contracts.loanNote, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "setApprovalForAll", args: [marketplace(), true] }) });
    const list = await call("PUT", `/nfts/${noteA}/list`, bob, { listingPrice: "2800" });
    assert.equal(list.status, 200, list.body?.message);
    const t = list.body.data.typedData;
    assert.equal(t.primaryType, "Listing");
    assert.equal(t.message.price, String(parseUsd("2800")));
    assert.equal(t.message.parBps, "0");
    const signature = await bob.wallet!.signTypedData(typed(t) as never);
    const published = await publish(bob, { kind: "listing", message: t.message, signature });
    assert.equal(published.status, 201, published.body?.message);
    const par = await call("PUT", `/nfts/${noteA}/list`, bob, { listingPrice: "2800", parBps: 9800 });
    assert.equal(par.body.data.typedData.message.parBps, "9800");
    const atPar = await publish(bob, { kind: "listing", message: par.body.data.typedData.message, signature: await bob.wallet!.signTypedData(typed(par.body.data.typedData) as never) });
    assert.equal(atPar.status, 201, atPar.body?.message);
    assert.equal(atPar.body.data.priceNow, formatUsdAmount(parPrice(await split(noteA), 9800n)), "98% of $3,000 is above the fixed $2,800");
    // The marketplace offers the note at the cheaper of Bob's two listings, and counts no offer of his own on it.
    await synced();
    const market = (await call("GET", "/nfts/marketplace/browse", alice)).body.data.nfts.find((n: any) => n.tokenId === noteA.toString());
    assert.deepEqual([market.signedListing.hash, market.listingPrice, market.sellerAddress], [published.body.data.hash, "2800", bob.wallet!.address.toLowerCase()]);
    assert.equal(market.bestOffer, null, "Bob's own matching offer, which note A fits, is no offer on the note he holds");
    const meddling = await call("PUT", `/nfts/${noteA}/unlist`, alice);
    assert.ok(meddling.status >= 400 && meddling.status < 500, "Alice cannot have Bob's listings cancelled");
    assert.deepEqual(
      (await call("GET", `/orders/note/${noteA}`)).body.data.listings.map((o: any) => o.hash),
      [published.body.data.hash, atPar.body.data.hash],
      "cheapest first",
    );
    const unlist = await call("PUT", `/nfts/${noteA}/unlist`, bob);
    assert.equal(unlist.status, 200, unlist.body?.message);
    assert.deepEqual([...unlist.body.data.orderHashes].sort(), [published.body.data.hash, atPar.body.data.hash].sort());
    await send(bob, unlist.body.data.call);
    assert.deepEqual((await call("GET", `/orders/note/${noteA}`)).body.data.listings, []);
    const made = (await call("GET", "/orders/mine", bob)).body.data.made;
    assert.equal(made.find((o: any) => o.hash === published.body.data.hash).status, "cancelled");
    assert.equal(made.find((o: any) => o.hash === atPar.body.data.hash).status, "cancelled");
  });

  it("marks every order of a signer cancelled once they increment their counter", async () => {
    await send(bob, { to: marketplace(), data: encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "incrementCounter" }) });
    const matching = (await call("GET", "/orders/matching")).body.data.matchingOffers;
    assert.deepEqual(matching, []);
    const made = (await call("GET", "/orders/mine", bob)).body.data.made;
    assert.equal(made.find((o: any) => o.hash === matchingHash).status, "cancelled");
    assert.equal(made.find((o: any) => o.hash === matchingHash).statusReason, "Cancelled: its signer cancelled all their orders");
  });

  it("offers a partly spent matching offer only for the notes the rest of its budget can buy", async () => {
    const noteC = await requestAndApprove("2000", 12, 12);
    await synced();
    await approveDollars(alice, maxUint256);
    const offer = await signed(alice, { kind: "matchingOffer", priceKind: "par", parBps: 10_000, budget: "4000" });
    const published = await publish(alice, offer);
    assert.equal(published.status, 201, published.body?.message);
    const hash = published.body.data.hash;
    const priceOfC = parPrice(await split(noteC), 10_000n);
    assert.deepEqual(
      (await call("GET", `/orders/note/${noteC}`)).body.data.matchingOffers.map((o: any) => [o.hash, o.priceNow]),
      [[hash, formatUsdAmount(priceOfC)]],
      "$2,000 and a day's interest fit a $4,000 budget",
    );
    // Bob sells note A ($3,000 at par) into it: $1,000 of the budget is left, too little for note C.
    const price = parPrice(await split(noteA), 10_000n);
    await send(bob, {
      to: marketplace(),
      data: encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "acceptMatchingOffer", args: [offer.typedData.message as never, offer.signature, noteA, price] }),
    });
    await synced();
    const [, spent] = await stack.chain.readContract({ address: marketplace(), abi: noteMarketplaceAbi, functionName: "orderStatus", args: [alice.wallet!.address, hash as Hex] });
    assert.equal(spent, price);
    const all = (await call("GET", "/orders/matching")).body.data.matchingOffers;
    assert.deepEqual(
      all.map((o: any) => [o.hash, o.status, o.filled]),
      [[hash, "open", formatUsdAmount(price)]],
      "still open for a note of $1,000 or less",
    );
    assert.deepEqual((await call("GET", `/orders/note/${noteC}`)).body.data.matchingOffers, []);
    const market = (await call("GET", "/nfts/marketplace/browse", bob)).body.data.nfts.find((n: any) => n.tokenId === noteC.toString());
    assert.equal(market.bestOffer, null, "the marketplace does not offer what the budget left cannot pay");
  });

  /** The typed data of a $100 fixed-price offer on note B for `user`: a template to vary by salt. */
  async function offerTemplate(user: TestUser): Promise<Record<string, string>> {
    const asked = await call("POST", "/orders/typed-data", user, { kind: "offer", tokenId: noteB.toString(), priceKind: "fixed", price: "100" });
    assert.equal(asked.status, 200, asked.body?.message);
    return asked.body.data.typedData.message;
  }

  it("answers 429 to a user's 31st order published within a minute, stores nothing for it, and limits asking for typed data alike", async () => {
    const erin = await makeUser(stack.api, { kyc: "approved", wallet: true });
    const { max } = DEFAULT_RATE_LIMITS.orderPublish;
    const template = await offerTemplate(erin);
    const statuses: number[] = [];
    let last = null as Awaited<ReturnType<typeof publish>> | null;
    for (let i = 0; i <= max; i++) {
      const message = { ...template, salt: String(1_000 + i) };
      last = await publish(erin, { kind: "offer", message, signature: await signAs(erin.wallet!, "offer", message) });
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [...Array(max).fill(201), 429]);
    assert.deepEqual(last!.body, { success: false, message: ORDER_ANSWERS.tooMany(max), data: null });
    assert.equal((await storedBy(erin.wallet!.address)).length, max, "the 31st was not stored");
    // Her template was one ask already; the asks are counted apart from the publishes.
    const asks: number[] = [];
    for (let i = 1; i <= max; i++) asks.push((await call("POST", "/orders/typed-data", erin, { kind: "offer", tokenId: noteB.toString(), parBps: 9000 })).status);
    assert.deepEqual(asks, [...Array(max - 1).fill(200), 429]);
  });

  it("refuses a signer's order past the open-order cap with 409 until one of theirs is cancelled on-chain", async () => {
    const { config, ordersRepo, publicClient } = stack.services;
    const capped = createOrdersService({ config, repo: ordersRepo, publicClient, maxOpenOrders: 2 });
    const frank = await makeUser(stack.api, { kyc: "approved", wallet: true });
    await fund(stack, frank.wallet!.address, 0n);
    const template = await offerTemplate(frank);
    const submit = async (salt: string) => {
      const message = { ...template, salt };
      const input = orderSubmissionSchema.parse({ kind: "offer", message, signature: await signAs(frank.wallet!, "offer", message) });
      return capped.submit(frank.row, input);
    };
    const first = await submit("1");
    await submit("2");
    await assert.rejects(submit("3"), (e: unknown) => e instanceof AppError && e.status === 409 && e.message === ORDER_ANSWERS.openCap(2));
    assert.equal((await storedBy(frank.wallet!.address)).length, 2, "nothing stored past the cap");
    // The stored status may not know of the cancel yet: the cap judges the signer's orders again before refusing.
    await send(frank, { to: marketplace(), data: encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "cancelOrders", args: [[first.hash as Hex]] }) });
    const third = await submit("3");
    assert.equal(third.signer, frank.wallet!.address.toLowerCase());
    assert.equal((await storedBy(frank.wallet!.address)).length, 3);
  });
});
