import { test, expect, request as playwrightRequest, type APIRequestContext, type Browser } from "@playwright/test";
import { createPublicClient, createWalletClient, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { demoCollectionAbi, loanNoteAbi, testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { PERIOD_SECONDS } from "#domain/schedule";
import { connect, DEMO, login, person, signIn, type Person } from "./investors";
import { loginByForm, screenshot, skipSplash } from "./helpers";
import { expectFitsScreen, PHONE } from "./phone";
import { query } from "./db";
import { E2E_BASE_URL, E2E_RPC_URL } from "./stack";
import { wizardAtCollateral } from "./securedLoans";

/**
 * NFT collateral end to end, in Chromium with the local dev wallet: the demo borrower pledges a demo NFT
 * through the wizard and approves the escrow from the request page; an admin appraises and approves, and the
 * origination moves the piece into the escrow; the payoff gives it back. A second loan defaults and the
 * note's holder claims the piece from the note's page.
 */
const USD = 1_000_000n;
const chain = createPublicClient({ chain: foundry, transport: http(E2E_RPC_URL) });
const borrowerAddress = privateKeyToAccount(DEV_ACCOUNTS.demoBorrower).address;

let api: APIRequestContext;
let adminToken = "";
let borrowerToken = "";
let contracts: { loanNote: Address; collateralEscrow: Address; stablecoin: Address; demoCollection: Address };

const asAdmin = () => ({ authorization: `Bearer ${adminToken}` });
const asBorrower = () => ({ authorization: `Bearer ${borrowerToken}` });
const ownerOf = (tokenId: string) => chain.readContract({ address: contracts.demoCollection, abi: demoCollectionAbi, functionName: "ownerOf", args: [BigInt(tokenId)] }) as Promise<Address>;

/** Test dollars from the dev faucet's account, straight on the chain (the faucet route gives $1,000 once a day). */
async function dollars(to: Address, amount: bigint) {
  const faucet = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.faucet), chain: foundry, transport: http(E2E_RPC_URL) });
  await chain.waitForTransactionReceipt({ hash: await faucet.writeContract({ address: contracts.stablecoin, abi: testDollarAbi, functionName: "transfer", args: [to, amount] }) });
}

async function browserFor(browser: Browser, account: { email: string; password: string }, as: "User" | "Admin", options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await skipSplash(page);
  await loginByForm(page, account, as);
  await expect(page).toHaveURL(as === "Admin" ? /\/admin$/ : /\/dashboard$/);
  return page;
}

/** A piece of the demo art the demo borrower holds and has not pledged, per GET /collateral/mine. */
async function freeDemoPiece() {
  const pieces = (await (await api.get("/api/collateral/mine", { headers: asBorrower() })).json()).data.nfts as { collection: string; tokenId: string; pledgedLoanId: string | null }[];
  return pieces.find((p) => p.collection === contracts.demoCollection.toLowerCase() && !p.pledgedLoanId)!;
}

async function pendingLoanOf(tokenId: string) {
  const rows = await query<{ id: string; loan_number: string }>(
    "select id, loan_number::text from loans where collateral_collection = $1 and collateral_token_id = $2::numeric and status = 'pending'",
    [contracts.demoCollection.toLowerCase(), tokenId],
  );
  expect(rows).toHaveLength(1);
  return { id: rows[0].id, loanNumber: rows[0].loan_number };
}

test.describe.serial("a demo NFT secures a loan", () => {
  test.beforeAll(async () => {
    api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
    adminToken = await login(api, DEMO.admin.email, DEMO.admin.password);
    borrowerToken = await login(api, DEMO.borrower.email, DEMO.borrower.password);
    contracts = (await (await api.get("/api/config")).json()).data.contracts;
    expect(contracts.demoCollection, "the local chain deploys the demo collection").toMatch(/^0x[0-9a-fA-F]{40}$/);
    // The payoff costs a little more than the principal: interest of the days it ran.
    await dollars(borrowerAddress, 100n * USD);
  });

  test.afterAll(async () => {
    await api?.dispose();
  });

  test("the borrower pledges a demo NFT in the wizard, approves the escrow, the admin appraises and approves, and the payoff returns it", async ({ browser }) => {
    test.setTimeout(240_000);
    const page = await browserFor(browser, DEMO.borrower, "User");

    // 1. The wizard's collateral step lists the wallet's pieces as pictures; one is picked and fills the description.
    await page.goto("/loans/request");
    const wizard = page.getByTestId("loan-wizard");
    await wizard.getByLabel("Loan amount (USD)").fill("2,000");
    await wizard.getByLabel("Purpose").selectOption("NFT Purchase");
    await wizard.getByRole("button", { name: "Next" }).click();
    await wizard.getByLabel("Interest rate (% a year)").fill("8");
    await wizard.getByLabel("Term", { exact: true }).selectOption("6");
    await wizard.getByRole("button", { name: "Next" }).click();
    await expect(wizard.getByLabel("Collateral type")).toHaveValue("nft");
    const picker = page.getByTestId("nft-picker");
    // Other journeys may leave pieces of other collections in wallets: this one pledges the demo art.
    const free = picker
      .getByTestId("nft-pick")
      .and(page.locator(`[data-collection="${contracts.demoCollection.toLowerCase()}"]`))
      .filter({ has: page.locator("input:enabled") });
    await expect(free.first()).toBeVisible({ timeout: 20_000 });
    await expect(wizard.getByRole("button", { name: "Submit Request" })).toBeDisabled();
    const card = free.first();
    const tokenId = (await card.getAttribute("data-token-id"))!;
    expect(await ownerOf(tokenId)).toBe(borrowerAddress);
    // On-chain art, shown only as an <img> of a checked data URI.
    await expect(card.locator("img")).toHaveAttribute("src", /^data:image\/(svg\+xml|png|gif|jpeg|webp);base64,/);
    await expect(card.locator("svg, iframe, object")).toHaveCount(0);
    await card.getByRole("radio").check();
    // The piece named once: not "LoanMint Demo Art #1 (LoanMint Demo Art) #1".
    await expect(wizard.getByLabel("Collateral description")).toHaveValue(`LoanMint Demo Art #${tokenId}`);
    await wizard.getByLabel("Collateral value (USD)").fill("3500");
    await screenshot(page, "collateral-01-picker");
    await wizard.getByRole("button", { name: "Submit Request" }).click();
    await expect(page).toHaveURL(/\/loans\/my-loans$/);
    const loan = await pendingLoanOf(tokenId);

    // The same piece cannot back a second request: the wizard shows it taken, the API says why.
    await wizardAtCollateral(page, "1500");
    const taken = page.getByTestId("nft-pick").and(page.locator(`[data-token-id="${tokenId}"]`));
    await expect(taken.getByRole("radio")).toBeDisabled({ timeout: 20_000 });
    await expect(taken).toContainText("Already pledged to another request");
    const again = await api.post("/api/loans/request", {
      headers: asBorrower(),
      data: {
        amount: "1500",
        purpose: "personal",
        interestRate: 8,
        termMonths: 6,
        collateral: { type: "nft", value: "3000", description: "again", nft: { collection: contracts.demoCollection, tokenId } },
      },
    });
    expect(again.status()).toBe(400);
    expect((await again.json()).message).toBe("This NFT is already pledged to another request");

    // 2. The request page: the piece, held, not yet approved for the escrow; the approval in words, then one transaction.
    await page.goto(`/loans/${loan.id}`);
    const panel = page.getByTestId("collateral-panel");
    await expect(panel.getByTestId("pledged-nft")).toContainText(`#${tokenId}`);
    await expect(panel.getByTestId("collateral-held")).toHaveAttribute("data-value", "true");
    await expect(panel.getByTestId("collateral-approved")).toHaveAttribute("data-value", "false");
    await expect(panel.getByTestId("approval-summary")).not.toBeEmpty();
    await connect(page, "loanmint-dev");
    await panel.getByTestId("approve-escrow").click();
    // The review says what the wallet sends and to whom; nothing is approved until Confirm.
    await expect(panel.getByTestId("review").getByTestId("escrow-review-call")).toContainText("Let LoanMint's escrow take");
    expect(((await chain.readContract({ address: contracts.demoCollection, abi: demoCollectionAbi, functionName: "getApproved", args: [BigInt(tokenId)] })) as Address).toLowerCase()).not.toBe(
      contracts.collateralEscrow.toLowerCase(),
    );
    await panel.getByRole("button", { name: "Confirm approval" }).click();
    await expect(page.getByText("Escrow approved: the loan note may take the NFT").first()).toBeVisible({ timeout: 30_000 });
    await expect(panel.getByTestId("collateral-approved")).toHaveAttribute("data-value", "true", { timeout: 20_000 });
    await expect(panel.getByTestId("collateral-ready")).toBeVisible();
    const approvedFor = (await chain.readContract({ address: contracts.demoCollection, abi: demoCollectionAbi, functionName: "getApproved", args: [BigInt(tokenId)] })) as Address;
    const approvedForAll = (await chain.readContract({
      address: contracts.demoCollection,
      abi: demoCollectionAbi,
      functionName: "isApprovedForAll",
      args: [borrowerAddress, contracts.collateralEscrow],
    })) as boolean;
    expect(approvedFor.toLowerCase() === contracts.collateralEscrow.toLowerCase() || approvedForAll).toBe(true);
    await screenshot(page, "collateral-02-escrow-approved");

    // 3. The admin's review: the piece, checked live, no approval before an appraisal; then the appraisal and its LTV.
    const admin = await browserFor(browser, DEMO.admin, "Admin");
    await admin.goto(`/admin/request?loan=${loan.id}`);
    await expect(admin.locator(`[data-testid="request-row"][data-loan-id="${loan.id}"]`).getByTestId("request-nft-backed")).toHaveText("NFT-backed");
    const details = admin.getByTestId("loan-details");
    const review = details.getByTestId("collateral-review");
    await expect(review.getByTestId("pledged-nft")).toContainText(`#${tokenId}`);
    await expect(review.getByTestId("pledged-nft-image")).toHaveAttribute("src", /^data:image\//);
    await expect(review.getByTestId("review-held")).toHaveAttribute("data-value", "true");
    await expect(review.getByTestId("review-approved")).toHaveAttribute("data-value", "true");
    await details.getByRole("button", { name: "Approve" }).click();
    const modal = admin.getByTestId("decision-modal");
    await modal.getByRole("button", { name: "Approve, fund and mint" }).click();
    await modal.getByRole("button", { name: "Confirm approval" }).click();
    await expect(modal.getByTestId("approve-error")).toHaveText("Enter an appraised value for the NFT before approving");
    const appraisal = modal.getByTestId("appraisal-form");
    await appraisal.getByLabel("Appraised value (USD)").fill("0");
    await appraisal.getByRole("button", { name: "Save appraisal" }).click();
    await expect(appraisal.getByTestId("appraisal-error")).toHaveText("Appraised value must be greater than 0");
    await appraisal.getByLabel("Appraised value (USD)").fill("4,000");
    await expect(modal.getByTestId("review-ltv")).toContainText("50%");
    await appraisal.getByRole("button", { name: "Save appraisal" }).click();
    await expect(appraisal.getByRole("button", { name: "Update appraisal" })).toBeVisible();
    await expect(modal.getByTestId("approve-error")).toHaveCount(0);
    expect((await query<{ appraisal: string }>("select collateral_appraisal::text as appraisal from loans where id = $1", [loan.id]))[0].appraisal).toBe(String(4_000n * USD));
    await screenshot(admin, "collateral-03-admin-review");
    await modal.getByRole("button", { name: "Approve, fund and mint" }).click();
    // The review says the piece goes into escrow in the same transaction, before anything is sent.
    await expect(modal.getByTestId("approval-escrow")).toContainText("escrow in the same transaction");
    await modal.getByRole("button", { name: "Confirm approval" }).click();
    await expect(modal.getByTestId("step-minted")).toHaveAttribute("data-state", "done", { timeout: 45_000 });
    // Origination took the piece into the escrow in the same transaction that minted the note.
    expect((await ownerOf(tokenId)).toLowerCase()).toBe(contracts.collateralEscrow.toLowerCase());
    await modal.getByRole("button", { name: "Done" }).click();
    await admin.context().close();

    // 4. The borrower pays off; the final payment gives the piece back.
    await page.goto(`/loans/${loan.id}`);
    await expect(page.getByTestId("loan-details")).toHaveAttribute("data-status", "active", { timeout: 20_000 });
    await expect(page.getByTestId("loan-collateral").getByTestId("pledged-nft")).toHaveAttribute("data-state", "locked", { timeout: 20_000 });
    await expect(page.getByTestId("note-holder")).not.toContainText("Not yet indexed", { timeout: 20_000 });
    const repay = page.getByTestId("repay-panel");
    const paying = repay.getByText("Paying from");
    const connectButton = repay.getByRole("button", { name: "Connect Wallet" });
    await expect(paying.or(connectButton)).toBeVisible({ timeout: 30_000 });
    if (await connectButton.isVisible()) {
      await connectButton.click();
      await page.getByTestId("rk-wallet-option-loanmint-dev").click();
      await expect(paying).toBeVisible();
    }
    await page.getByTestId("repay-payoff").click();
    await page
      .getByTestId("review")
      .getByRole("button", { name: /^Confirm and pay off/ })
      .click();
    await expect(page.getByText("Loan paid off")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("loan-completed")).toBeVisible({ timeout: 20_000 });
    expect(await ownerOf(tokenId)).toBe(borrowerAddress);
    await expect(page.getByTestId("loan-collateral").getByTestId("pledged-nft")).toHaveAttribute("data-state", "returned", { timeout: 20_000 });
    await screenshot(page, "collateral-04-returned");
    await page.context().close();
  });

  test("the pledge, the request page and the admin's review fit a 390 px phone, and say so when the wallet no longer holds the piece", async ({ browser }) => {
    const piece = await freeDemoPiece();
    expect(piece, "the demo borrower still holds a free piece").toBeTruthy();
    const requested = await api.post("/api/loans/request", {
      headers: asBorrower(),
      data: {
        amount: "1200",
        purpose: "personal",
        interestRate: 7,
        termMonths: 3,
        collateral: { type: "nft", value: "2000", description: "phone check", nft: { collection: contracts.demoCollection, tokenId: piece.tokenId } },
      },
    });
    expect(requested.status(), await requested.text()).toBe(201);
    const loanId = (await requested.json()).data._id as string;

    const phone = await browserFor(browser, DEMO.borrower, "User", PHONE);
    await wizardAtCollateral(phone, "2000");
    await expect(phone.getByTestId("nft-pick").first()).toBeVisible({ timeout: 20_000 });
    await expectFitsScreen(phone);
    await phone.goto(`/loans/${loanId}`);
    const panel = phone.getByTestId("collateral-panel");
    await expect(panel.getByTestId("approval-summary")).toBeVisible({ timeout: 20_000 });
    await expectFitsScreen(phone);

    // The piece leaves the wallet: the request page says so (read live from the collection), and so does the review.
    const parked = privateKeyToAccount(DEV_ACCOUNTS.faucet).address;
    const move = (key: Hex, from: Address, to: Address) =>
      createWalletClient({ account: privateKeyToAccount(key), chain: foundry, transport: http(E2E_RPC_URL) })
        .writeContract({ address: contracts.demoCollection, abi: demoCollectionAbi, functionName: "transferFrom", args: [from, to, BigInt(piece.tokenId)] })
        .then((hash) => chain.waitForTransactionReceipt({ hash }));
    await move(DEV_ACCOUNTS.demoBorrower, borrowerAddress, parked);
    await phone.reload();
    await expect(panel.getByTestId("collateral-held")).toHaveAttribute("data-value", "false", { timeout: 20_000 });
    await expect(panel.getByTestId("collateral-not-held")).toContainText("no longer holds this NFT");
    await expect(panel.getByTestId("approve-escrow")).toHaveCount(0);
    await expectFitsScreen(phone);
    await phone.context().close();

    const appraised = await api.put(`/api/admin/loans/${loanId}/collateral/appraisal`, { headers: asAdmin(), data: { appraisal: "2000" } });
    expect(appraised.ok(), await appraised.text()).toBeTruthy();
    const admin = await browserFor(browser, DEMO.admin, "Admin", PHONE);
    await admin.goto(`/admin/request?loan=${loanId}`);
    const review = admin.getByTestId("collateral-review");
    await expect(review.getByTestId("review-held")).toHaveAttribute("data-value", "false", { timeout: 20_000 });
    await expect(review.getByTestId("review-ltv")).toContainText("60%");
    await expectFitsScreen(admin);
    await admin.getByTestId("loan-details").getByRole("button", { name: "Approve" }).click();
    const modal = admin.getByTestId("decision-modal");
    await modal.getByRole("button", { name: "Approve, fund and mint" }).click();
    await modal.getByRole("button", { name: "Confirm approval" }).click();
    await expect(modal.getByTestId("approve-error")).toHaveText("The borrower's wallet no longer holds the pledged NFT");
    await expectFitsScreen(admin);
    await admin.context().close();
    await move(DEV_ACCOUNTS.faucet, parked, borrowerAddress);

    // Rejected, so the piece is free again for the default journey.
    const rejected = await api.put(`/api/admin/loans/${loanId}/reject`, { headers: asAdmin(), data: { rejectionReason: "Phone layout check only" } });
    expect(rejected.ok(), await rejected.text()).toBeTruthy();
  });

  test("a verified wallet without a piece of an accepted collection is told which collections are accepted, and on the local chain mints a demo piece to pledge", async ({ browser }) => {
    const newcomer = await person(api, "no-art");
    const page = await signIn(browser, newcomer);
    const wizard = await wizardAtCollateral(page, "1000");
    const empty = page.getByTestId("nft-picker-empty");
    await expect(empty).toContainText("holds no NFT of a collection accepted as collateral", { timeout: 20_000 });
    await expect(empty).toContainText("LoanMint Demo Art");
    await expect(wizard.getByRole("button", { name: "Submit Request" })).toBeDisabled();

    // The demo collection's faucet, from the verified wallet: the minted piece becomes the picker's one card.
    await connect(page);
    await empty.getByTestId("mint-demo-art").click();
    await expect(empty.getByTestId("review")).toContainText("gas only (test ETH): the piece is free");
    await empty.getByRole("button", { name: "Confirm mint" }).click();
    const pick = page.getByTestId("nft-pick");
    await expect(pick).toHaveCount(1, { timeout: 30_000 });
    const owner = await ownerOf((await pick.getAttribute("data-token-id"))!);
    expect(owner.toLowerCase()).toBe(newcomer.address.toLowerCase());
    await expect(pick.locator("img")).toHaveAttribute("src", /^data:image\/svg\+xml;base64,/);

    await wizard.getByLabel("Collateral type").selectOption("other");
    await expect(page.getByTestId("nft-picker")).toHaveCount(0);
    await page.context().close();
  });

  test("a second NFT-secured loan defaults and the note's holder claims the piece from the note's page", async ({ browser }) => {
    test.setTimeout(240_000);
    const holder: Person = await person(api, "nft-holder");
    await dollars(holder.address, 2_000n * USD);

    // The borrower pledges another piece and sends the approval the API offers; the admin appraises and approves.
    const piece = await freeDemoPiece();
    expect(piece, "the demo borrower still holds a free piece").toBeTruthy();
    const requested = await api.post("/api/loans/request", {
      headers: asBorrower(),
      data: {
        amount: "1000",
        purpose: "personal",
        interestRate: 9,
        termMonths: 1,
        collateral: { type: "nft", value: "2000", description: "Second piece", nft: { collection: contracts.demoCollection, tokenId: piece.tokenId } },
      },
    });
    expect(requested.status(), await requested.text()).toBe(201);
    const loan = (await requested.json()).data as { _id: string; loanNumber: number };
    const check = (await (await api.get(`/api/loans/${loan._id}/collateral`, { headers: asBorrower() })).json()).data as { approval: { to: Address; data: Hex; value: string } | null };
    expect(check.approval).not.toBeNull();
    const borrowerWallet = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.demoBorrower), chain: foundry, transport: http(E2E_RPC_URL) });
    await chain.waitForTransactionReceipt({ hash: await borrowerWallet.sendTransaction({ to: check.approval!.to, data: check.approval!.data, value: BigInt(check.approval!.value) }) });
    const appraised = await api.put(`/api/admin/loans/${loan._id}/collateral/appraisal`, { headers: asAdmin(), data: { appraisal: "2000.00" } });
    expect(appraised.ok(), await appraised.text()).toBeTruthy();
    expect((await appraised.json()).data.collateral.nft.loanToValueBps).toBe(5000);
    const approved = await api.put(`/api/admin/loans/${loan._id}/approve`, { headers: asAdmin(), data: {} });
    expect(approved.ok(), await approved.text()).toBeTruthy();
    const tokenId = String(loan.loanNumber);
    expect((await ownerOf(piece.tokenId)).toLowerCase()).toBe(contracts.collateralEscrow.toLowerCase());

    // An investor buys the note from the treasury's listing on the note's page.
    const page = await signIn(browser, holder);
    await page.goto(`/marketplace/nft/${tokenId}`);
    await expect(page.getByTestId("note-collateral").getByTestId("pledged-nft")).toContainText(`#${piece.tokenId}`, { timeout: 20_000 });
    await connect(page);
    // 100% of par is the dirty price: $1,000 and day 1's $0.25 of interest (9% a year, one month's $7.50 over 30 days).
    await page.getByRole("button", { name: "Buy for $1,000.25" }).click();
    await page.getByTestId("review").getByRole("button", { name: "Confirm and pay $1,000.25" }).click();
    await expect(page.getByText(`Note #${tokenId} is yours`)).toBeVisible({ timeout: 30_000 });

    // Nothing is repaid: past maturity and the grace period the loan is marked defaulted.
    const onChain = (await chain.readContract({ address: contracts.loanNote, abi: loanNoteAbi, functionName: "loanOf", args: [BigInt(tokenId)] })) as { start: bigint | number; termMonths: number };
    const grace = (await chain.readContract({ address: contracts.loanNote, abi: loanNoteAbi, functionName: "gracePeriod" })) as bigint;
    const due = BigInt(onChain.start) + BigInt(onChain.termMonths) * PERIOD_SECONDS + grace;
    const now = (await chain.getBlock()).timestamp;
    if (now <= due) await chain.request({ method: "evm_increaseTime" as never, params: [Number(due - now + 60n)] as never });
    await chain.request({ method: "evm_mine" as never, params: [] as never });
    const defaulted = await api.post(`/api/admin/loans/${loan._id}/default`, { headers: asAdmin() });
    expect(defaulted.ok(), await defaulted.text()).toBeTruthy();

    // The holder claims the piece: the words first, then one transaction; the note is settled and burned.
    await page.reload();
    const collateral = page.getByTestId("note-collateral");
    await connect(page);
    await collateral.getByTestId("claim-collateral").click({ timeout: 30_000 });
    await expect(collateral.getByTestId("claim-words")).toContainText("The note is settled and burned");
    await collateral.getByTestId("claim-confirm").click();
    await expect(page.getByText("is now in your wallet").first()).toBeVisible({ timeout: 30_000 });
    expect(await ownerOf(piece.tokenId)).toBe(holder.address);
    await expect(collateral.getByTestId("pledged-nft")).toHaveAttribute("data-state", "claimed", { timeout: 20_000 });
    await screenshot(page, "collateral-05-claimed");
    await page.context().close();
  });
});
