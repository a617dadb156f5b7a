import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { createWalletClient, encodeFunctionData, erc721Abi, http, type Abi, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { collateralEscrowAbi, demoCollectionAbi, loanNoteAbi, noteVaultAbi, testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { formatUsdAmount } from "#domain/money";
import { loans } from "#db/schema";
import { z } from "zod";
import { wireCollateralCheckSchema, wirePledgedNftSchema, wireWalletCallSchema, wireWalletNftsSchema } from "#domain/wire/collateral";
import { wireLoanSchema } from "#domain/wire/loan";
import { wireNftSchema } from "#domain/wire/nft";
import { fund, makeUser, parPriceNow, sendAs, startLoanStack, validRequest, type LoanStack, type TestUser } from "#testing/loanStack";
import { testContracts } from "../testing/contracts";

const USD = 1_000_000n;
let stack: LoanStack;
let admin: TestUser;
let borrower: TestUser;
let other: TestUser;
let demo: Address;
let hostile: Address;
/** Demo pieces minted to the borrower for this suite, each used by one test. */
const pieces: bigint[] = [];

const call = (...args: Parameters<LoanStack["api"]["call"]>) => stack.api.call(...args);
const lower = (a: string) => a.toLowerCase();
const contracts = () => stack.deployment.contracts as Record<"loanNote" | "collateralEscrow" | "marketplace" | "stablecoin" | "vault", Address>;
const deployer = () => createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.deployer), chain: foundry, transport: http(stack.anvil.rpcUrl) });
const read = (address: Address, abi: Abi, functionName: string, args: unknown[] = []) => stack.chain.readContract({ address, abi, functionName, args } as never) as Promise<any>;
const caughtUp = () => stack.indexer!.caughtUp();

async function asDeployer(address: Address, abi: Abi, functionName: string, args: unknown[]) {
  const hash = await deployer().writeContract({ address, abi, functionName, args } as never);
  const receipt = await stack.chain.waitForTransactionReceipt({ hash });
  assert.equal(receipt.status, "success", functionName);
}

async function mintDemo(to: Address): Promise<bigint> {
  await asDeployer(demo, demoCollectionAbi as Abi, "mint", [to]);
  return (await read(demo, demoCollectionAbi as Abi, "totalMinted")) as bigint;
}

const nftRequest = (collection: string, tokenId: bigint | string, body: Record<string, unknown> = {}) => ({
  ...validRequest,
  collateral: { type: "nft", value: "8000", description: "A demo piece", nft: { collection, tokenId: tokenId.toString() } },
  ...body,
});

async function pledge(user: TestUser, collection: string, tokenId: bigint) {
  const answer = await call("POST", "/loans/request", { token: user.token, body: nftRequest(collection, tokenId) });
  assert.equal(answer.status, 201, answer.body.message);
  return answer.body.data;
}

const loansOf = async (userId: string) => (await stack.api.database.db.select({ id: loans.id }).from(loans).where(eq(loans.userId, userId))).length;
const treasuryBalance = () => read(contracts().stablecoin, testDollarAbi as Abi, "balanceOf", [stack.deployment.treasury]) as Promise<bigint>;
const originatorNonce = () => stack.chain.getTransactionCount({ address: stack.deployment.originator as Address });
const ownerOf = async (collection: Address, id: bigint) => lower(await read(collection, erc721Abi as Abi, "ownerOf", [id]));

async function appraise(loanId: string, appraisal: string) {
  const answer = await call("PUT", `/admin/loans/${loanId}/collateral/appraisal`, { token: admin.token, body: { appraisal } });
  assert.equal(answer.status, 200, answer.body.message);
  return answer.body.data;
}

/** The borrower sends the approval call the API answers, as the request page does. */
async function approveEscrow(user: TestUser, loanId: string) {
  const check = await call("GET", `/loans/${loanId}/collateral`, { token: user.token });
  assert.equal(check.status, 200, check.body.message);
  assert.ok(check.body.data.approval, "an approval call is offered");
  await sendAs(stack, user.wallet!, check.body.data.approval);
}

/**
 * The escrow's entries of a loan's timeline (the appraisal aside), each beside the time of the block that mined its
 * transaction, read from the chain; and whether the whole timeline is in order of time.
 */
async function escrowTimeline(loanId: string) {
  const loan = wireLoanSchema.parse((await call("GET", `/loans/${loanId}`, { token: borrower.token })).body.data);
  const timeline = loan.timeline!;
  assert.deepEqual(
    timeline.map((e) => e.at),
    timeline.map((e) => e.at).sort(),
    "the timeline is in order of time",
  );
  const entries = timeline.filter((e) => e.action.startsWith("collateral_") && e.action !== "collateral_appraised");
  return Promise.all(
    entries.map(async ({ action, at, by, notes, txHash }) => {
      const { blockNumber } = await stack.chain.getTransactionReceipt({ hash: txHash as Hex });
      const block = await stack.chain.getBlock({ blockNumber });
      return { action, at, by, notes, txHash, blockTime: new Date(Number(block.timestamp) * 1000).toISOString() };
    }),
  );
}

/** An approval the API must refuse before it sends anything. */
async function refusedApproval(loanId: string, message: string) {
  const [balance, nonce] = [await treasuryBalance(), await originatorNonce()];
  const answer = await call("PUT", `/admin/loans/${loanId}/approve`, { token: admin.token, body: {} });
  assert.equal(answer.status, 409, answer.body.message);
  assert.equal(answer.body.message, message);
  const loan = await call("GET", `/loans/${loanId}`, { token: admin.token });
  assert.equal(loan.body.data.status, "pending");
  assert.equal(loan.body.data.mintStatus, "none");
  assert.equal(await originatorNonce(), nonce, "no transaction was sent");
  assert.equal(await treasuryBalance(), balance, "the treasury paid nothing");
}

before(async () => {
  stack = await startLoanStack({ indexer: true });
  demo = stack.deployment.contracts.demoCollection as Address;
  [admin, borrower, other] = await Promise.all([
    makeUser(stack.api, { admin: true }),
    makeUser(stack.api, { kyc: "approved", wallet: true, firstName: "Nia" }),
    makeUser(stack.api, { kyc: "approved", wallet: true, firstName: "Oto" }),
  ]);
  await fund(stack, borrower.wallet!.address, 0n);
  await fund(stack, other.wallet!.address, 50_000n * USD);
  for (let i = 0; i < 5; i++) pieces.push(await mintDemo(borrower.wallet!.address));

  // A collection the test controls, allowed on LoanNote: its tokenURIs are HTML, a script address, oversized, a revert.
  const { abi, bytecode } = testContracts().MetadataCollection;
  const hash = await deployer().deployContract({ abi, bytecode, args: ["Hostile\u0000 <b>Art</b>"] });
  hostile = lower((await stack.chain.waitForTransactionReceipt({ hash })).contractAddress!) as Address;
  const html = `data:application/json;base64,${Buffer.from(JSON.stringify({ name: "Trap", image: "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==" })).toString("base64")}`;
  const script = `data:application/json,${JSON.stringify({ name: "Script", image: "javascript:alert(1)" })}`;
  await asDeployer(hostile, abi, "mint", [borrower.wallet!.address, 1n, html]);
  await asDeployer(hostile, abi, "mint", [borrower.wallet!.address, 2n, script]);
  await asDeployer(hostile, abi, "mint", [borrower.wallet!.address, 3n, ""]);
  await asDeployer(hostile, abi, "mint", [borrower.wallet!.address, 4n, ""]);
  await asDeployer(hostile, abi, "setTrap", [3n, false, 900_000n]);
  await asDeployer(hostile, abi, "setTrap", [4n, true, 0n]);
  await asDeployer(contracts().collateralEscrow, collateralEscrowAbi as Abi, "allowCollection", [hostile]);
  await caughtUp();
});
after(async () => {
  await stack?.close();
});

describe("the wizard's picker", () => {
  test("lists the accepted collections by name, publicly", async () => {
    const answer = await call("GET", "/collateral/collections");
    assert.equal(answer.status, 200, answer.body.message);
    assert.deepEqual(answer.body.data, [
      { collection: lower(demo), name: "LoanMint Demo Art" },
      { collection: hostile, name: "Hostile <b>Art</b>" },
    ]);
  });

  test("lists the pieces the caller's verified wallet holds, with the demo art's name and image, and none without a wallet", async () => {
    const answer = await call("GET", "/collateral/mine", { token: borrower.token });
    assert.equal(answer.status, 200, answer.body.message);
    const mine = wireWalletNftsSchema.parse(answer.body.data);
    assert.equal(mine.walletAddress, lower(borrower.wallet!.address));
    const demoPieces = mine.nfts.filter((n) => n.collection === lower(demo));
    assert.deepEqual(
      demoPieces.map((n) => n.tokenId),
      pieces.map(String),
    );
    assert.equal(demoPieces[0].name, `LoanMint Demo Art #${pieces[0]}`);
    assert.equal(demoPieces[0].collectionName, "LoanMint Demo Art");
    assert.match(demoPieces[0].image!, /^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/);
    assert.ok(demoPieces.every((n) => n.pledgedLoanId === null));

    const noWallet = await makeUser(stack.api, { kyc: "approved" });
    const none = await call("GET", "/collateral/mine", { token: noWallet.token });
    assert.deepEqual(none.body.data, { walletAddress: null, nfts: [] });
    assert.equal((await call("GET", "/collateral/mine")).status, 401);
  });

  test("shows a hostile collection's pieces without an image: HTML, a script address, an oversized or reverting tokenURI", async () => {
    const answer = await call("GET", "/collateral/mine", { token: borrower.token });
    assert.equal(answer.status, 200, answer.body.message);
    const found = Object.fromEntries(answer.body.data.nfts.filter((n: any) => n.collection === hostile).map((n: any) => [n.tokenId, [n.name, n.image]]));
    assert.deepEqual(found, { "1": ["Trap", null], "2": ["Script", null], "3": [null, null], "4": [null, null] });
  });
});

describe("a request pledging an NFT", () => {
  test("is refused with 400 and nothing stored: no piece chosen, no wallet, a collection not accepted, a piece the wallet does not hold", async () => {
    const noWallet = await makeUser(stack.api, { kyc: "approved" });
    const cases: [TestUser, unknown, string][] = [
      [borrower, { ...validRequest, collateral: { type: "nft", value: "8000", description: "x" } }, "Choose an NFT to pledge"],
      [borrower, nftRequest("0x1234", pieces[0]), "Choose an NFT to pledge"],
      [borrower, nftRequest(demo, "1.5"), "Choose an NFT to pledge"],
      [noWallet, nftRequest(demo, pieces[0]), "Verify a wallet before pledging an NFT"],
      [borrower, nftRequest(contracts().stablecoin, 1n), "This collection is not accepted as collateral"],
      // Piece 1 is the demo borrower's, minted at deployment.
      [borrower, nftRequest(demo, 1n), "Your verified wallet does not hold this NFT"],
      [other, nftRequest(demo, pieces[0]), "Your verified wallet does not hold this NFT"],
    ];
    for (const [user, body, message] of cases) {
      const before = await loansOf(user.id);
      const answer = await call("POST", "/loans/request", { token: user.token, body });
      assert.equal(answer.status, 400, message);
      assert.equal(answer.body.message, message);
      assert.equal(await loansOf(user.id), before);
    }
  });

  test("stores the piece beside the collateral, shows it pledged, and refuses the same piece twice", async () => {
    const loan = await pledge(borrower, demo.toUpperCase().replace("0X", "0x"), pieces[0]);
    const parsed = wireLoanSchema.parse(loan);
    assert.deepEqual(parsed.collateral!.nft, {
      collection: lower(demo),
      collectionName: "LoanMint Demo Art",
      tokenId: String(pieces[0]),
      name: `LoanMint Demo Art #${pieces[0]}`,
      image: parsed.collateral!.nft!.image,
      state: "pledged",
      appraisal: null,
      loanToValueBps: null,
      txHash: null,
      receiver: null,
    });
    const [row] = await stack.api.database.db.select().from(loans).where(eq(loans.id, loan._id));
    assert.equal(row.collateralCollection, lower(demo));
    assert.equal(row.collateralTokenId, pieces[0]);

    const before = await loansOf(borrower.id);
    const twice = await call("POST", "/loans/request", { token: borrower.token, body: nftRequest(demo, pieces[0]) });
    assert.equal(twice.status, 400);
    assert.equal(twice.body.message, "This NFT is already pledged to another request");
    assert.equal(await loansOf(borrower.id), before);

    const mine = await call("GET", "/collateral/mine", { token: borrower.token });
    assert.equal(mine.body.data.nfts.find((n: any) => n.tokenId === String(pieces[0]) && n.collection === lower(demo)).pledgedLoanId, loan._id);
    await call("PUT", `/admin/loans/${loan._id}/reject`, { token: admin.token, body: { rejectionReason: "Not now" } });
    const again = await pledge(borrower, demo, pieces[0]);
    await call("PUT", `/admin/loans/${again._id}/reject`, { token: admin.token, body: { rejectionReason: "Not now" } });
  });

  test("once rejected, releases its piece: the loan reads released, the picker offers it, the check offers no approval, and a new request may pledge it", async () => {
    const piece = await mintDemo(borrower.wallet!.address);
    // The request's check reads who holds the piece from the mirror: the mint must be indexed first.
    await caughtUp();
    const loan = await pledge(borrower, demo, piece);
    const pickable = async () => (await call("GET", "/collateral/mine", { token: borrower.token })).body.data.nfts.find((n: any) => n.tokenId === String(piece));
    assert.equal((await pickable()).pledgedLoanId, loan._id);

    const rejected = await call("PUT", `/admin/loans/${loan._id}/reject`, { token: admin.token, body: { rejectionReason: "Not now" } });
    assert.equal(rejected.status, 200, rejected.body.message);
    assert.equal(wireLoanSchema.parse(rejected.body.data).collateral!.nft!.state, "released");
    for (const user of [borrower, admin]) {
      assert.equal((await call("GET", `/loans/${loan._id}`, { token: user.token })).body.data.collateral.nft.state, "released");
    }
    const listed = await call("GET", "/loans/my-loans", { token: borrower.token });
    assert.equal(listed.body.data.loans.find((l: any) => l._id === loan._id).collateral.nft.state, "released");
    assert.equal((await pickable()).pledgedLoanId, null, "the wizard's picker offers the piece again");
    const check = await call("GET", `/loans/${loan._id}/collateral`, { token: borrower.token });
    assert.equal(check.status, 200, check.body.message);
    assert.deepEqual([check.body.data.nft.state, check.body.data.held, check.body.data.approval], ["released", true, null]);

    const again = await pledge(borrower, demo, piece);
    assert.equal(again.collateral.nft.state, "pledged");
    assert.equal((await pickable()).pledgedLoanId, again._id);
    assert.equal((await call("GET", `/loans/${loan._id}`, { token: borrower.token })).body.data.collateral.nft.state, "released", "the old request stays released");
    await call("PUT", `/admin/loans/${again._id}/reject`, { token: admin.token, body: { rejectionReason: "Not now" } });
  });

  test("is read live by its borrower and the admin, with the escrow approval to send; anyone else is told it does not exist", async () => {
    const loan = await pledge(borrower, demo, pieces[1]);
    const stranger = await call("GET", `/loans/${loan._id}/collateral`, { token: other.token });
    assert.equal(stranger.status, 404);
    assert.equal(stranger.body.message, "Loan not found");
    assert.equal((await call("GET", `/loans/${loan._id}/collateral`)).status, 401);

    for (const user of [borrower, admin]) {
      const answer = await call("GET", `/loans/${loan._id}/collateral`, { token: user.token });
      assert.equal(answer.status, 200, answer.body.message);
      const check = wireCollateralCheckSchema.parse(answer.body.data);
      assert.equal(check.owner, lower(borrower.wallet!.address));
      assert.equal(check.borrowerWallet, lower(borrower.wallet!.address));
      assert.equal(check.held, true);
      assert.equal(check.approved, false);
      assert.equal(check.approval!.to, lower(demo));
      assert.equal(check.approval!.value, "0");
      assert.equal(check.approval!.data, encodeFunctionData({ abi: erc721Abi, functionName: "approve", args: [contracts().collateralEscrow, pieces[1]] }));
      assert.equal(check.approval!.summary, `Let LoanMint's escrow take LoanMint Demo Art #${pieces[1]} when your loan is approved. It stays in your wallet until then.`);
    }
    await approveEscrow(borrower, loan._id);
    const approved = await call("GET", `/loans/${loan._id}/collateral`, { token: borrower.token });
    assert.equal(approved.body.data.approved, true);
    assert.equal(approved.body.data.approval, null);

    const plain = await call("POST", "/loans/request", { token: borrower.token, body: validRequest });
    const none = await call("GET", `/loans/${plain.body.data._id}/collateral`, { token: borrower.token });
    assert.equal(none.status, 404);
    assert.equal(none.body.message, "This loan has no pledged NFT");
    for (const id of [loan._id, plain.body.data._id]) await call("PUT", `/admin/loans/${id}/reject`, { token: admin.token, body: { rejectionReason: "Done" } });
  });
});

describe("the admin's appraisal", () => {
  test("stores the value with who and when, gives the loan-to-value, and is refused for bad input, a borrower and a decided loan", async () => {
    const loan = await pledge(borrower, demo, pieces[2]);
    for (const appraisal of ["0", "-5", "abc", ""]) {
      const bad = await call("PUT", `/admin/loans/${loan._id}/collateral/appraisal`, { token: admin.token, body: { appraisal } });
      assert.equal(bad.status, 400, appraisal);
      assert.equal(bad.body.message, "Appraised value must be greater than 0");
    }
    const asBorrower = await call("PUT", `/admin/loans/${loan._id}/collateral/appraisal`, { token: borrower.token, body: { appraisal: "1" } });
    assert.equal(asBorrower.status, 403);

    const appraised = wireLoanSchema.parse(await appraise(loan._id, "15000"));
    assert.equal(appraised.collateral!.nft!.appraisal, "15000");
    // 5,000 requested over 15,000: 3,333 basis points, rounded down.
    assert.equal(appraised.collateral!.nft!.loanToValueBps, 3333);
    const event = appraised.timeline!.at(-1)!;
    assert.equal(event.action, "collateral_appraised");
    assert.equal(event.notes, "Appraised the pledged NFT at $15,000.00");
    assert.equal(event.by!._id, admin.id);
    const [row] = await stack.api.database.db.select().from(loans).where(eq(loans.id, loan._id));
    assert.equal(row.collateralAppraisal, 15_000n * USD);
    assert.equal(row.collateralAppraisedBy, admin.id);
    assert.ok(row.collateralAppraisedAt);

    const plain = await call("POST", "/loans/request", { token: borrower.token, body: validRequest });
    const none = await call("PUT", `/admin/loans/${plain.body.data._id}/collateral/appraisal`, { token: admin.token, body: { appraisal: "100" } });
    assert.equal(none.status, 404);
    assert.equal(none.body.message, "This loan has no pledged NFT");

    for (const id of [loan._id, plain.body.data._id]) await call("PUT", `/admin/loans/${id}/reject`, { token: admin.token, body: { rejectionReason: "Done" } });
    const decided = await call("PUT", `/admin/loans/${loan._id}/collateral/appraisal`, { token: admin.token, body: { appraisal: "100" } });
    assert.equal(decided.status, 409);
    assert.equal(decided.body.message, "Only a pending request's NFT can be appraised");
  });
});

describe("approving an NFT-secured request", () => {
  test("is refused (409, nothing sent, nothing paid) before the appraisal, without the escrow approval, and once the borrower moved the piece", async () => {
    const loan = await pledge(borrower, demo, pieces[3]);
    await refusedApproval(loan._id, "Enter an appraised value for the NFT before approving");
    await appraise(loan._id, "10000");
    await refusedApproval(loan._id, "The borrower has not approved the escrow for the pledged NFT yet");
    await approveEscrow(borrower, loan._id);
    await sendAs(stack, borrower.wallet!, {
      to: demo,
      data: encodeFunctionData({ abi: erc721Abi, functionName: "transferFrom", args: [borrower.wallet!.address, other.wallet!.address, pieces[3]] }),
    });
    await refusedApproval(loan._id, "The borrower's wallet no longer holds the pledged NFT");
    const check = await call("GET", `/loans/${loan._id}/collateral`, { token: admin.token });
    assert.deepEqual([check.body.data.owner, check.body.data.held, check.body.data.approval], [lower(other.wallet!.address), false, null]);
    await call("PUT", `/admin/loans/${loan._id}/reject`, { token: admin.token, body: { rejectionReason: "Moved" } });
  });

  test("is refused once the collection is no longer accepted", async () => {
    const loan = await pledge(borrower, hostile, 1n);
    await appraise(loan._id, "2000");
    await approveEscrow(borrower, loan._id);
    await asDeployer(contracts().collateralEscrow, collateralEscrowAbi as Abi, "disallowCollection", [hostile]);
    try {
      await refusedApproval(loan._id, "This collection is no longer accepted as collateral");
    } finally {
      await asDeployer(contracts().collateralEscrow, collateralEscrowAbi as Abi, "allowCollection", [hostile]);
    }
    await call("PUT", `/admin/loans/${loan._id}/reject`, { token: admin.token, body: { rejectionReason: "Done" } });
  });

  test("escrows the piece in the origination: the loan, its note and the marketplace show it locked", async () => {
    const piece = pieces[4];
    const loan = await pledge(borrower, demo, piece);
    await appraise(loan._id, "10000");
    await approveEscrow(borrower, loan._id);
    const answer = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: { fundingAmount: "4000" } });
    assert.equal(answer.status, 200, answer.body.message);
    assert.equal(answer.body.data.mintStatus, "minted");
    assert.equal(await ownerOf(demo, piece), lower(contracts().collateralEscrow));
    const tokenId = BigInt(answer.body.data.loanNumber);
    const [collection, collateralId, pledger] = await read(contracts().collateralEscrow, collateralEscrowAbi as Abi, "collateralOf", [tokenId]);
    assert.deepEqual([lower(collection), collateralId, lower(pledger)], [lower(demo), piece, lower(borrower.wallet!.address)]);

    await caughtUp();
    const wired = wireLoanSchema.parse((await call("GET", `/loans/${loan._id}`, { token: borrower.token })).body.data);
    assert.equal(wired.collateral!.nft!.state, "locked");
    assert.equal(wired.collateral!.nft!.txHash, wired.nftTransactionHash);
    // 4,000 funded over 10,000 appraised.
    assert.equal(wired.collateral!.nft!.loanToValueBps, 4000);
    const [locked, ...more] = await escrowTimeline(loan._id);
    assert.equal(more.length, 0);
    assert.deepEqual(locked, {
      action: "collateral_locked",
      at: locked.blockTime,
      by: null,
      notes: `LoanMint Demo Art #${piece} moved from the borrower's wallet into the loan note's escrow`,
      txHash: wired.nftTransactionHash,
      blockTime: locked.blockTime,
    });
    const list = await call("GET", "/loans/my-loans", { token: borrower.token });
    assert.equal(list.body.data.loans.find((l: any) => l._id === loan._id).collateral.nft.state, "locked");

    const note = wireNftSchema.parse((await call("GET", `/nfts/${tokenId}`)).body.data);
    assert.equal(note.collateral!.state, "locked");
    assert.equal(note.collateral!.name, `LoanMint Demo Art #${piece}`);
    assert.equal(note.collateral!.appraisal, "10000");

    const withNft = await call("GET", "/nfts/marketplace/browse?collateral=nft&limit=100", { token: other.token });
    assert.equal(withNft.status, 200, withNft.body.message);
    assert.ok(withNft.body.data.nfts.some((n: any) => n.tokenId === String(tokenId)));
    assert.ok(withNft.body.data.nfts.every((n: any) => n.collateral !== null));
    // The loan-shaped list carries the same piece as the note views.
    const asLoans = await call("GET", "/loans/marketplace/list?collateral=nft&limit=100", { token: other.token });
    assert.equal(asLoans.status, 200, asLoans.body.message);
    const listed = asLoans.body.data.loans.find((l: any) => l.nftTokenId === String(tokenId));
    assert.deepEqual(wirePledgedNftSchema.parse(listed.collateral), note.collateral);
    const without = await call("GET", "/nfts/marketplace/browse?collateral=none&limit=100", { token: other.token });
    assert.ok(!without.body.data.nfts.some((n: any) => n.tokenId === String(tokenId)));
    const bad = await call("GET", "/nfts/marketplace/browse?collateral=gold", { token: other.token });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.message, "Collateral must be nft or none");

    const check = await call("GET", `/loans/${loan._id}/collateral`, { token: borrower.token });
    assert.deepEqual([check.body.data.owner, check.body.data.held, check.body.data.approval, check.body.data.nft.state], [lower(contracts().collateralEscrow), false, null, "locked"]);
  });
});

describe("the claim of a defaulted note's piece", () => {
  test("is answered to the note's holder only, and only after the default", async () => {
    const piece = await mintDemo(borrower.wallet!.address);
    await caughtUp();
    const loan = await pledge(borrower, demo, piece);
    await appraise(loan._id, "9000");
    await approveEscrow(borrower, loan._id);
    const approved = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: {} });
    assert.equal(approved.status, 200, approved.body.message);
    const tokenId = String(approved.body.data.loanNumber);
    await caughtUp();

    // Other buys the note from the treasury's listing at par: the principal plus the interest accrued (the dirty price).
    const price = formatUsdAmount(await parPriceNow(stack, tokenId));
    const first = await call("POST", `/nfts/${tokenId}/buy`, { token: other.token, body: { expectedPrice: price } });
    assert.equal(first.status, 200, first.body.message);
    const permit = first.body.data.permit;
    const signature = await other.wallet!.signTypedData({
      domain: { ...permit.domain, verifyingContract: permit.domain.verifyingContract as Address },
      types: permit.types,
      primaryType: "Permit",
      message: { ...permit.message, value: BigInt(permit.message.value), nonce: BigInt(permit.message.nonce), deadline: BigInt(permit.message.deadline) },
    });
    const second = await call("POST", `/nfts/${tokenId}/buy`, { token: other.token, body: { expectedPrice: price, signature, deadline: first.body.data.deadline } });
    await sendAs(stack, other.wallet!, second.body.data.call);

    const early = await call("POST", `/nfts/${tokenId}/collateral/claim`, { token: other.token, body: {} });
    assert.equal(early.status, 409);
    assert.equal(early.body.message, "This note's collateral cannot be claimed now");
    // Other keeps the note in the vault: the vault owns it, and the claim is still its depositor's.
    const vault = contracts().vault;
    await sendAs(stack, other.wallet!, {
      to: contracts().loanNote,
      data: encodeFunctionData({ abi: loanNoteAbi, functionName: "transferFrom", args: [other.wallet!.address, vault, BigInt(tokenId)] }),
    });
    assert.equal(lower((await read(contracts().loanNote, loanNoteAbi as Abi, "ownerOf", [BigInt(tokenId)])) as string), lower(vault));

    const { maturity } = (await read(contracts().loanNote, loanNoteAbi as Abi, "noteStateOf", [BigInt(tokenId)])) as { maturity: bigint };
    const grace = (await read(contracts().loanNote, loanNoteAbi as Abi, "gracePeriod")) as bigint;
    const now = (await stack.chain.getBlock()).timestamp;
    await stack.rpc("evm_increaseTime", [Number(maturity + grace - now + 60n)]);
    await stack.rpc("evm_mine");
    const defaulted = await call("POST", `/admin/loans/${loan._id}/default`, { token: admin.token });
    assert.equal(defaulted.status, 200, defaulted.body.message);

    for (const user of [borrower, admin]) {
      const refused = await call("POST", `/nfts/${tokenId}/collateral/claim`, { token: user.token, body: {} });
      assert.equal(refused.status, 403, refused.body.message);
      assert.equal(refused.body.message, "Only the note's holder can claim its collateral");
    }
    assert.equal((await call("POST", `/nfts/${tokenId}/collateral/claim`, { body: {} })).status, 401);
    const noNote = await call("POST", "/nfts/987654321/collateral/claim", { token: other.token, body: {} });
    assert.deepEqual([noNote.status, noNote.body.message], [404, "NFT not found"]);
    for (const contract of [contracts().loanNote, contracts().collateralEscrow]) {
      const toContract = await call("POST", `/nfts/${tokenId}/collateral/claim`, { token: other.token, body: { to: contract } });
      assert.deepEqual([toContract.status, toContract.body.message], [400, "Choose a wallet address to receive the NFT"]);
    }
    const toNobody = await call("POST", `/nfts/${tokenId}/collateral/claim`, { token: other.token, body: { to: "0x0000000000000000000000000000000000000000" } });
    assert.deepEqual([toNobody.status, toNobody.body.message], [400, "Choose a wallet address to receive the NFT"]);

    const answer = await call("POST", `/nfts/${tokenId}/collateral/claim`, { token: other.token, body: {} });
    assert.equal(answer.status, 200, answer.body.message);
    const claim = z.object({ call: wireWalletCallSchema }).parse(answer.body.data).call;
    assert.equal(claim.to, lower(contracts().collateralEscrow));
    assert.equal(claim.value, "0");
    assert.equal(claim.summary, `Take LoanMint Demo Art #${piece} out of escrow to ${lower(other.wallet!.address)}. The defaulted note is settled and burned.`);
    // Out of the vault, other holds the note itself and is still the one answered; the borrower still is not.
    await sendAs(stack, other.wallet!, { to: vault, data: encodeFunctionData({ abi: noteVaultAbi, functionName: "withdraw", args: [BigInt(tokenId), other.wallet!.address] }) });
    assert.equal((await call("POST", `/nfts/${tokenId}/collateral/claim`, { token: borrower.token, body: {} })).status, 403);
    const direct = await call("POST", `/nfts/${tokenId}/collateral/claim`, { token: other.token, body: {} });
    assert.equal(direct.status, 200, direct.body.message);
    assert.deepEqual(direct.body.data.call, claim);
    await sendAs(stack, other.wallet!, claim);
    assert.equal(await ownerOf(demo, piece), lower(other.wallet!.address));
    await caughtUp();
    const after = await call("GET", `/loans/${loan._id}`, { token: borrower.token });
    assert.equal(after.body.data.collateral.nft.state, "claimed");
    assert.equal(after.body.data.collateral.nft.receiver, lower(other.wallet!.address));
    const moves = await escrowTimeline(loan._id);
    assert.deepEqual(
      moves.map((e) => e.action),
      ["collateral_locked", "collateral_claimed"],
    );
    const claimed = moves[1];
    assert.equal(claimed.txHash, after.body.data.collateral.nft.txHash);
    assert.equal(claimed.at, claimed.blockTime);
    const receiver = lower(other.wallet!.address);
    assert.equal(claimed.notes, `LoanMint Demo Art #${piece} claimed by the note's holder, sent to ${receiver.slice(0, 6)}…${receiver.slice(-4)}`);
    const gone = await call("POST", `/nfts/${tokenId}/collateral/claim`, { token: other.token, body: {} });
    assert.equal(gone.status, 409);
  });
});

describe("the borrower's pull after a failed return", () => {
  test("is answered to the borrower only, once the collection refused to return the piece at the final payment", async () => {
    const { abi } = testContracts().MetadataCollection;
    const loan = await pledge(borrower, hostile, 2n);
    await appraise(loan._id, "3000");
    await approveEscrow(borrower, loan._id);
    const approved = await call("PUT", `/admin/loans/${loan._id}/approve`, { token: admin.token, body: { fundingAmount: "1000" } });
    assert.equal(approved.status, 200, approved.body.message);
    const tokenId = String(approved.body.data.loanNumber);
    assert.equal(await ownerOf(hostile, 2n), lower(contracts().collateralEscrow));

    const early = await call("POST", `/nfts/${tokenId}/collateral/claim`, { token: borrower.token, body: {} });
    assert.equal(early.status, 409);
    assert.equal(early.body.message, "This note's collateral cannot be claimed now");

    // The collection refuses every transfer out of the escrow while the borrower pays the loan off.
    await asDeployer(hostile, abi, "setBlockedFrom", [contracts().collateralEscrow]);
    await fund(stack, borrower.wallet!.address, 2_000n * USD);
    const payoff = await call("PUT", `/loans/${loan._id}/repayment`, { token: borrower.token, body: { amount: "1500" } });
    assert.equal(payoff.status, 200, payoff.body.message);
    await sendAs(stack, borrower.wallet!, payoff.body.data.calls.approve);
    await sendAs(stack, borrower.wallet!, payoff.body.data.calls.repay);
    assert.equal(await ownerOf(hostile, 2n), lower(contracts().collateralEscrow), "the piece stayed in escrow");
    await caughtUp();
    const failed = await call("GET", `/loans/${loan._id}`, { token: borrower.token });
    assert.equal(failed.body.data.status, "completed");
    assert.equal(failed.body.data.collateral.nft.state, "returnFailed");

    await asDeployer(hostile, abi, "setBlockedFrom", ["0x0000000000000000000000000000000000000000"]);
    for (const user of [other, admin]) {
      const refused = await call("POST", `/nfts/${tokenId}/collateral/claim`, { token: user.token, body: {} });
      assert.equal(refused.status, 403, refused.body.message);
      assert.equal(refused.body.message, "Only the note's holder can claim its collateral");
    }
    const answer = await call("POST", `/nfts/${tokenId}/collateral/claim`, { token: borrower.token, body: {} });
    assert.equal(answer.status, 200, answer.body.message);
    const claim = z.object({ call: wireWalletCallSchema }).parse(answer.body.data).call;
    assert.equal(claim.summary, `Take Script back out of escrow to ${lower(borrower.wallet!.address)}.`);
    await sendAs(stack, borrower.wallet!, claim);
    assert.equal(await ownerOf(hostile, 2n), lower(borrower.wallet!.address));
    await caughtUp();
    const returned = await call("GET", `/loans/${loan._id}`, { token: borrower.token });
    assert.equal(returned.body.data.collateral.nft.state, "returned");
    assert.equal(returned.body.data.collateral.nft.receiver, lower(borrower.wallet!.address));
    // The refusal stays in the timeline at the final payment, before the pull.
    const moves = await escrowTimeline(loan._id);
    assert.deepEqual(
      moves.map((e) => [e.action, e.txHash]),
      [
        ["collateral_locked", approved.body.data.nftTransactionHash],
        ["collateral_return_failed", failed.body.data.collateral.nft.txHash],
        ["collateral_returned", returned.body.data.collateral.nft.txHash],
      ],
    );
    for (const move of moves) assert.equal(move.at, move.blockTime, move.action);
    const collectionName = returned.body.data.collateral.nft.collectionName;
    const name = collectionName ? `${collectionName} #2` : `NFT #2 (${hostile.slice(0, 6)}…${hostile.slice(-4)})`;
    const wallet = lower(borrower.wallet!.address);
    assert.equal(moves[1].notes, `The final payment was made, but the collection refused to return ${name}; the borrower can claim it back`);
    assert.equal(moves[2].notes, `${name} returned to ${wallet.slice(0, 6)}…${wallet.slice(-4)}`);
  });
});

describe("a crash after sending originateWithCollateral", () => {
  test("is reconciled like any origination: the loan ends minted and its piece locked", async () => {
    const piece = await mintDemo(borrower.wallet!.address);
    await caughtUp();
    const loan = await pledge(borrower, demo, piece);
    await appraise(loan._id, "9000");
    await approveEscrow(borrower, loan._id);
    const wallet = lower(borrower.wallet!.address);
    await stack.api.database.db
      .update(loans)
      .set({ status: "approved", mintStatus: "minting", principal: 5_000n * USD, borrowerWallet: wallet })
      .where(eq(loans.id, loan._id));
    const originator = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.originator), chain: foundry, transport: http(stack.anvil.rpcUrl) });
    const hash: Hex = await originator.writeContract({
      address: contracts().loanNote,
      abi: loanNoteAbi,
      functionName: "originateWithCollateral",
      args: [BigInt(loan.loanNumber), wallet as Address, 5_000n * USD, 850, 12, demo, piece],
    });
    await stack.chain.waitForTransactionReceipt({ hash });
    await stack.services.origination.reconcileAll();
    const after = wireLoanSchema.parse((await call("GET", `/loans/${loan._id}`, { token: admin.token })).body.data);
    assert.equal(after.mintStatus, "minted");
    assert.equal(after.status, "active");
    assert.equal(after.collateral!.nft!.state, "locked");
    assert.equal(after.collateral!.nft!.txHash, hash);
    // The retry that a failed record would offer is refused: the note exists.
    const retried = await call("POST", `/admin/nfts/${loan._id}/retry-mint`, { token: admin.token, body: {} });
    assert.equal(retried.status, 409);
  });
});
