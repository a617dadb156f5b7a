import { test, expect, request as playwrightRequest, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { createPublicClient, createWalletClient, http, maxUint256, type Abi, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { loanNoteAbi, noteMarketplaceAbi, testDollarAbi } from "#domain/abis";
import { displayUsd } from "#domain/money";
import { loginByForm, screenshot, skipSplash } from "./helpers";
import { connect, DEMO, login, person, signIn, type Person } from "./investors";
import { contractsOf, defaultLoan, demoPiece, giveNote, securedLoan, type Contracts, type SecuredLoan } from "./securedLoans";
import { E2E_BASE_URL, E2E_RPC_URL } from "./stack";

/**
 * Every move of money or gas is reviewed before it is sent: the admin accepts an investor's offer on a treasury note
 * (price, buyer, fee, then Confirm), withdraws the treasury's repayments (amount and treasury, then Confirm), and an
 * investor's Cancel on an order says it is an on-chain transaction costing gas and offers letting it expire.
 */
let api: APIRequestContext;
let investor: Person;
let adminToken = "",
  borrowerToken = "";
let sold = "",
  repaid = "",
  offered = "";
let contracts: { loanNote: Address; stablecoin: Address; marketplace: Address };
let treasury: Address;
const chain = () => createPublicClient({ chain: foundry, transport: http(E2E_RPC_URL) });
const ownerOf = async (tokenId: string) => ((await chain().readContract({ address: contracts.loanNote, abi: loanNoteAbi, functionName: "ownerOf", args: [BigInt(tokenId)] })) as string).toLowerCase();
const creditsOf = (who: Address) => chain().readContract({ address: contracts.loanNote, abi: loanNoteAbi, functionName: "creditsOf", args: [who] });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A $4,000 loan at 6.5% for 12 months, approved: its note is minted to the treasury. */
async function approvedNote(): Promise<string> {
  const requested = await api.post("/api/loans/request", { data: { amount: "4000", purpose: "education", interestRate: 6.5, termMonths: 12 }, headers: bearer(borrowerToken) });
  expect(requested.ok(), await requested.text()).toBeTruthy();
  const loan = (await requested.json()).data;
  const approved = await api.put(`/api/admin/loans/${loan._id}/approve`, { data: {}, headers: bearer(adminToken) });
  expect(approved.ok(), await approved.text()).toBeTruthy();
  return String(loan.loanNumber);
}

/** The investor signs a fixed-price offer on `tokenId` with their key and publishes it, as the note page would. */
async function offer(tokenId: string, price: string): Promise<string> {
  const asked = await api.post("/api/orders/typed-data", { data: { kind: "offer", tokenId, priceKind: "fixed", price, expiresInDays: 7 }, headers: bearer(investor.token) });
  expect(asked.ok(), await asked.text()).toBeTruthy();
  const typed = (await asked.json()).data.typedData;
  const message = Object.fromEntries(Object.entries(typed.message).map(([k, v]) => [k, /^0x/.test(v as string) ? v : BigInt(v as string)]));
  const signature = await privateKeyToAccount(investor.key).signTypedData({ domain: typed.domain, types: typed.types, primaryType: typed.primaryType, message } as never);
  const published = await api.post("/api/orders", { data: { kind: "offer", message: typed.message, signature }, headers: bearer(investor.token) });
  expect(published.status(), await published.text()).toBe(201);
  return (await published.json()).data.hash;
}

async function adminPage(browser: import("@playwright/test").Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await skipSplash(page);
  await loginByForm(page, DEMO.admin, "Admin");
  await expect(page).toHaveURL(/\/admin/);
  return page;
}

test.describe.serial("every move of money or gas is reviewed first", () => {
  test.beforeAll(async () => {
    api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
    adminToken = await login(api, DEMO.admin.email, DEMO.admin.password);
    borrowerToken = await login(api, DEMO.borrower.email, DEMO.borrower.password);
    investor = await person(api, "investor-reviews");
    const config = (await (await api.get("/api/config")).json()).data;
    contracts = config.contracts;
    treasury = (await (await api.get("/api/admin/treasury", { headers: bearer(adminToken) })).json()).data.address;
    [sold, repaid, offered] = [await approvedNote(), await approvedNote(), await approvedNote()];
    // The investor lets the marketplace take the dollars of an offer, and pays $100 on a treasury note (anyone may
    // repay), which leaves the treasury repayments to withdraw.
    const wallet = createWalletClient({ account: privateKeyToAccount(investor.key), chain: foundry, transport: http(E2E_RPC_URL) });
    for (const spender of [contracts.marketplace, contracts.loanNote]) {
      await chain().waitForTransactionReceipt({ hash: await wallet.writeContract({ address: contracts.stablecoin, abi: testDollarAbi, functionName: "approve", args: [spender, maxUint256] }) });
    }
    await chain().waitForTransactionReceipt({ hash: await wallet.writeContract({ address: contracts.loanNote, abi: loanNoteAbi, functionName: "repay", args: [BigInt(repaid), 100_000_000n] }) });
  });

  test.afterAll(async () => {
    await api?.dispose();
  });

  test("the admin accepts an investor's offer on a treasury note after reviewing price, buyer and fee", async ({ browser }) => {
    const hash = await offer(sold, "3900");
    const page = await adminPage(browser);
    const accepts: string[] = [];
    page.on("request", (r) => r.method() === "POST" && /\/api\/admin\/treasury\/offers\/.+\/accept$/.test(r.url()) && accepts.push(r.url()));
    await page.goto("/admin/portfolio");
    const row = page.getByTestId("treasury-offer").filter({ hasText: `Note #${sold}` });
    await expect(row).toBeVisible({ timeout: 30_000 });
    await expect(row).toContainText("$3,900.00");
    await row.getByRole("button", { name: "Accept…" }).click();
    const review = page.getByTestId("review");
    await expect(review).toContainText(`Sell note #${sold} to this offer`);
    await expect(review.getByTestId("review-price")).toHaveText("$3,900.00");
    await expect(review.getByTestId("review-buyer")).toHaveText(investor.address.toLowerCase());
    await expect(review.getByTestId("review-fee")).toContainText("$");
    await expect(review.getByTestId("review-proceeds")).toContainText("$");
    await expect(review).toContainText("treasury key");
    await screenshot(page, "reviews-01-accept");
    expect(accepts, "nothing is sent before Confirm").toEqual([]);
    expect(await ownerOf(sold)).toBe(treasury.toLowerCase());
    await review.getByRole("button", { name: "Confirm sale" }).click();
    await expect(page.getByText("Offer accepted: the note was sold for $3,900.00")).toBeVisible({ timeout: 30_000 });
    expect(accepts).toHaveLength(1);
    expect(accepts[0]).toContain(hash);
    expect(await ownerOf(sold)).toBe(investor.address.toLowerCase());
  });

  test("the treasury's withdrawal states the amount and the treasury first, then links its transaction", async ({ browser }) => {
    const page = await adminPage(browser);
    const withdrawals: string[] = [];
    page.on("request", (r) => r.method() === "POST" && r.url().endsWith("/api/admin/treasury/withdraw") && withdrawals.push(r.url()));
    await page.goto("/admin/portfolio");
    const credits = await creditsOf(treasury);
    expect(credits > 0n).toBeTruthy();
    await page.getByRole("button", { name: "Withdraw…" }).click();
    const review = page.getByTestId("review");
    await expect(review.getByTestId("review-amount")).toContainText("$");
    await expect(review.getByTestId("review-recipient")).toHaveText(treasury);
    expect(withdrawals, "nothing is sent before Confirm").toEqual([]);
    expect(await creditsOf(treasury)).toBe(credits);
    await review.getByRole("button", { name: "Confirm withdrawal" }).click();
    const toast = page.getByRole("status").filter({ hasText: "Withdrew $" });
    await expect(toast).toBeVisible({ timeout: 30_000 });
    await expect(toast.getByRole("link", { name: "View transaction" })).toHaveAttribute("href", /\/explorer\/tx\/0x[0-9a-f]{64}/);
    expect(withdrawals).toHaveLength(1);
    expect(await creditsOf(treasury)).toBe(0n);
  });

  test("Cancel on an order says it is an on-chain transaction costing gas, offers letting it expire, and sends only on Confirm", async ({ browser }) => {
    await offer(offered, "3000");
    const sent: string[] = [];
    const page = await signIn(browser, investor, { onRequest: (method) => (method === "eth_sendTransaction" || method === "eth_sendRawTransaction") && sent.push(method) });
    await page.goto("/portfolio");
    await connect(page);
    const row = page.getByTestId("offer-made").filter({ hasText: `Note #${offered}` });
    await expect(row).toBeVisible({ timeout: 30_000 });
    await row.getByRole("button", { name: "Cancel" }).click();
    const review = page.getByTestId("review");
    await expect(review.getByTestId("cancel-gas")).toContainText("costs gas");
    await expect(review.getByTestId("cancel-expire")).toContainText("let it expire");
    await expect(review).toContainText("Cancel all");
    await screenshot(page, "reviews-02-cancel");
    expect(sent, "nothing is sent before Confirm").toEqual([]);
    await review.getByRole("button", { name: "Cancel on-chain" }).click();
    await expect.poll(() => sent.length, { timeout: 30_000 }).toBe(1);
    await expect(row.getByTestId("order-status")).toHaveAttribute("data-status", "cancelled", { timeout: 30_000 });
  });

  test("Cancel listing says it is an on-chain transaction costing gas, offers letting it expire, and sends only on Confirm", async ({ browser }) => {
    // The investor holds the note the treasury sold them: they let the marketplace move their notes and list it.
    const wallet = createWalletClient({ account: privateKeyToAccount(investor.key), chain: foundry, transport: http(E2E_RPC_URL) });
    await chain().waitForTransactionReceipt({
      hash: await wallet.writeContract({ address: contracts.loanNote, abi: loanNoteAbi, functionName: "setApprovalForAll", args: [contracts.marketplace, true] }),
    });
    const asked = await api.post("/api/orders/typed-data", { data: { kind: "listing", tokenId: sold, priceKind: "fixed", price: "4100", expiresInDays: 7 }, headers: bearer(investor.token) });
    expect(asked.ok(), await asked.text()).toBeTruthy();
    const typed = (await asked.json()).data.typedData;
    const message = Object.fromEntries(Object.entries(typed.message).map(([k, v]) => [k, /^0x/.test(v as string) ? v : BigInt(v as string)]));
    const signature = await privateKeyToAccount(investor.key).signTypedData({ domain: typed.domain, types: typed.types, primaryType: typed.primaryType, message } as never);
    const published = await api.post("/api/orders", { data: { kind: "listing", message: typed.message, signature }, headers: bearer(investor.token) });
    expect(published.status(), await published.text()).toBe(201);

    const sent: string[] = [];
    const page = await signIn(browser, investor, { onRequest: (method) => (method === "eth_sendTransaction" || method === "eth_sendRawTransaction") && sent.push(method) });
    await page.goto(`/marketplace/nft/${sold}`);
    await connect(page);
    await page.getByRole("button", { name: "Cancel listing" }).click();
    const review = page.getByTestId("review");
    await expect(review.getByTestId("unlist-gas")).toContainText("gas, no dollars");
    await expect(review.getByTestId("unlist-expire")).toContainText("let it expire");
    expect(sent, "nothing is sent before Confirm").toEqual([]);
    await review.getByRole("button", { name: "Cancel on-chain" }).click();
    await expect.poll(() => sent.length, { timeout: 30_000 }).toBe(1);
    await expect(page.getByText(`Note #${sold} unlisted`)).toBeVisible({ timeout: 30_000 });
  });
});

/**
 * The wallet of each journey is watched: nothing is signed or sent before the review's Confirm, and after it exactly
 * the expected signatures and transactions. A borrower's loan is approved by the admin and bought from the treasury's
 * signed listing; a second note, listed on-chain by its holder, is bought with a permit; a third investor signs an
 * offer on it and the buyer accepts it; the borrower pays an installment, the buyer withdraws it, moves the note
 * through the vault, and the borrower pays it off. Last, as the chain moves past a secured loan's maturity: the
 * borrower pays what is past due on a third loan, and the buyer claims the pledged piece of the defaulted one.
 */
const WALLET_MOVES = new Set(["eth_sendTransaction", "eth_sendRawTransaction", "eth_signTypedData_v4", "personal_sign"]);
const SEND = "eth_sendTransaction";
const SIGN = "eth_signTypedData_v4";

/** A signed-in page whose wallet records every signature and transaction it is asked for. */
interface Watched {
  page: Page;
  moves: string[];
}

async function watched(browser: Browser, who: Person): Promise<Watched> {
  const moves: string[] = [];
  const page = await signIn(browser, who, { onRequest: (method) => WALLET_MOVES.has(method) && moves.push(method) });
  return { page, moves };
}

/** Connects the repay panel's wallet (any wallet may repay, so it has no wallet bar). */
async function connectToRepay(page: Page) {
  const panel = page.getByTestId("repay-panel");
  const paying = panel.getByText("Paying from");
  const button = panel.getByRole("button", { name: "Connect Wallet" });
  await expect(paying.or(button)).toBeVisible({ timeout: 30_000 });
  if (await button.isVisible()) {
    await button.click();
    await page.getByTestId("rk-wallet-option-injected").click();
    await expect(paying).toBeVisible();
  }
  return panel;
}

test.describe.serial("nothing is signed or sent before a review's Confirm", () => {
  let api2: APIRequestContext;
  let admin = "";
  let borrower: Person, buyer: Person, seller: Person, offerer: Person;
  let reviewed: { id: string; tokenId: string } = { id: "", tokenId: "" };
  let onChainListed = "";
  let pastDue: { id: string; tokenId: string } = { id: "", tokenId: "" };
  let secured: SecuredLoan;
  let deployed: Contracts & { vault: Address };
  let treasuryAddress = "";
  let buyerPage: Watched | undefined;
  let borrowerPage: Watched | undefined;
  const read = (functionName: string, args: unknown[], abi: Abi = loanNoteAbi as Abi, address: Address = deployed.loanNote) => chain().readContract({ address, abi, functionName, args });
  const walletOf = (who: Person) => createWalletClient({ account: privateKeyToAccount(who.key), chain: foundry, transport: http(E2E_RPC_URL) });
  const holderOf = async (tokenId: string) => ((await read("ownerOf", [BigInt(tokenId)])) as string).toLowerCase();
  const mined = async (hash: `0x${string}`) => expect((await chain().waitForTransactionReceipt({ hash })).status).toBe("success");

  /** A $1,000 loan of the borrower at 8% for 12 months, requested through the API: its id and note number. */
  async function requested(): Promise<{ id: string; tokenId: string }> {
    const res = await api2.post("/api/loans/request", { data: { amount: "1000", purpose: "education", interestRate: 8, termMonths: 12 }, headers: bearer(borrower.token) });
    expect(res.ok(), await res.text()).toBeTruthy();
    const loan = (await res.json()).data;
    return { id: String(loan._id), tokenId: String(loan.loanNumber) };
  }

  async function approved(): Promise<{ id: string; tokenId: string }> {
    const loan = await requested();
    const res = await api2.put(`/api/admin/loans/${loan.id}/approve`, { data: {}, headers: bearer(admin) });
    expect(res.ok(), await res.text()).toBeTruthy();
    return loan;
  }

  const buyerOnce = async (browser: Browser) => (buyerPage ??= await watched(browser, buyer));
  const borrowerOnce = async (browser: Browser) => (borrowerPage ??= await watched(browser, borrower));

  test.beforeAll(async () => {
    api2 = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
    admin = await login(api2, DEMO.admin.email, DEMO.admin.password);
    [borrower, buyer, seller, offerer] = [await person(api2, "reviews-borrower"), await person(api2, "reviews-buyer"), await person(api2, "reviews-seller"), await person(api2, "reviews-offerer")];
    deployed = (await contractsOf(api2)) as Contracts & { vault: Address };
    treasuryAddress = (await (await api2.get("/api/admin/treasury", { headers: bearer(admin) })).json()).data.address;
    // A note its holder lists on-chain at $1,000 (the plain listing, not a signature): the treasury hands it over.
    onChainListed = (await approved()).tokenId;
    await giveNote(deployed, onChainListed, seller.address);
    await mined(await walletOf(seller).writeContract({ address: deployed.loanNote, abi: loanNoteAbi, functionName: "setApprovalForAll", args: [deployed.marketplace, true] }));
    await mined(await walletOf(seller).writeContract({ address: deployed.marketplace, abi: noteMarketplaceAbi, functionName: "list", args: [BigInt(onChainListed), 1_000_000_000n] }));
    // The offerer lets the marketplace take their dollars once, so the offer needs no allowance step.
    await mined(await walletOf(offerer).writeContract({ address: deployed.stablecoin, abi: testDollarAbi, functionName: "approve", args: [deployed.marketplace, maxUint256] }));
    // A loan that falls past due, and a one-month loan secured by a demo piece whose note the buyer holds when it defaults.
    pastDue = await approved();
    const piece = await demoPiece(deployed, borrower.address);
    secured = await securedLoan(api2, borrower, admin, { collection: deployed.demoCollection, pieceId: piece, amount: "1000", appraisal: "2000", termMonths: 1 });
    await giveNote(deployed, secured.tokenId, buyer.address);
  });

  test.afterAll(async () => {
    await api2?.dispose();
  });

  test("the admin's approval states principal, wallet and what the server sends; nothing reaches the approve route before Confirm", async ({ browser }) => {
    reviewed = await requested();
    const page = await adminPage(browser);
    const approvals: string[] = [];
    page.on("request", (r) => r.method() === "PUT" && r.url().endsWith(`/api/admin/loans/${reviewed.id}/approve`) && approvals.push(r.url()));
    await page.goto(`/admin/request?loan=${reviewed.id}`);
    await page.getByTestId("loan-details").getByRole("button", { name: "Approve" }).click();
    const modal = page.getByTestId("decision-modal");
    await modal.getByRole("button", { name: "Approve, fund and mint" }).click();
    await expect(modal.getByTestId("approval-principal")).toHaveText("$1,000.00");
    await expect(modal.getByTestId("approval-recipient")).toHaveText(borrower.address.toLowerCase());
    await expect(modal).toContainText("one transaction with the originator key");
    expect(approvals, "nothing is sent before Confirm").toEqual([]);
    await modal.getByRole("button", { name: "Confirm approval" }).click();
    await expect(modal.getByTestId("step-listed")).toHaveAttribute("data-state", "done", { timeout: 30_000 });
    expect(approvals).toHaveLength(1);
    expect(await holderOf(reviewed.tokenId)).toBe(treasuryAddress.toLowerCase());
    await page.context().close();
  });

  test("buying from a signed listing: no permit or transaction before Confirm, then one of each", async ({ browser }) => {
    const { page, moves } = await buyerOnce(browser);
    await page.goto(`/marketplace/nft/${reviewed.tokenId}`);
    await connect(page);
    moves.length = 0;
    await page.getByRole("button", { name: /^Buy for \$/ }).click({ timeout: 30_000 });
    const review = page.getByTestId("review");
    await expect(review.getByTestId("review-amount")).toContainText("$1,000");
    await expect(review.getByTestId("review-to")).toContainText("the seller");
    await expect(review.getByTestId("review-wallet")).toContainText("a permit for at most");
    expect(moves, "nothing is signed or sent before Confirm").toEqual([]);
    await review.getByRole("button", { name: /^Confirm and pay/ }).click();
    await expect(page.getByText(`Note #${reviewed.tokenId} is yours`).first()).toBeVisible({ timeout: 30_000 });
    expect(moves).toEqual([SIGN, SEND]);
    expect(await holderOf(reviewed.tokenId)).toBe(buyer.address.toLowerCase());
  });

  test("buying from a plain on-chain listing: no permit or transaction before Confirm, then one of each", async ({ browser }) => {
    const { page, moves } = await buyerOnce(browser);
    await page.goto(`/marketplace/nft/${onChainListed}`);
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("listing-price")).toHaveText("$1,000.00", { timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    await connect(page);
    moves.length = 0;
    await page.getByRole("button", { name: "Buy for $1,000.00" }).click();
    const review = page.getByTestId("review");
    await expect(review.getByTestId("review-amount")).toHaveText("$1,000.00");
    await expect(review.getByTestId("review-to")).toContainText(seller.address.slice(0, 6), { ignoreCase: true });
    await expect(review.getByTestId("review-wallet")).toContainText("a permit for $1,000.00 (no gas), then one transaction");
    expect(moves, "nothing is signed or sent before Confirm").toEqual([]);
    await review.getByRole("button", { name: "Confirm and pay $1,000.00" }).click();
    await expect(page.getByText(`Note #${onChainListed} is yours`).first()).toBeVisible({ timeout: 30_000 });
    expect(moves).toEqual([SIGN, SEND]);
    expect(await holderOf(onChainListed)).toBe(buyer.address.toLowerCase());
  });

  test("signing an offer: the words first, no signature before Sign in wallet, then one signature and no transaction", async ({ browser }) => {
    const { page, moves } = await watched(browser, offerer);
    await page.goto(`/marketplace/nft/${onChainListed}`);
    await connect(page);
    const form = page.getByTestId("offer-form");
    await form.getByLabel("Fixed price").check();
    await form.getByLabel("Price ($)").fill("950");
    moves.length = 0;
    await form.getByRole("button", { name: "Review offer" }).click();
    await expect(page.getByTestId("sign-words")).toContainText(`note #${onChainListed}`);
    await expect(page.getByTestId("sign-words")).toContainText("$950.00");
    expect(moves, "nothing is signed before Sign in wallet").toEqual([]);
    await page.getByRole("button", { name: "Sign in wallet" }).click();
    await expect(page.getByText(`Offer on note #${onChainListed} signed`).first()).toBeVisible({ timeout: 30_000 });
    expect(moves).toEqual([SIGN]);
    await page.context().close();
  });

  test("accepting an offer on one's note: no transaction before Sell, then the marketplace's approval if needed and the sale", async ({ browser }) => {
    const { page, moves } = await buyerOnce(browser);
    await page.goto("/portfolio");
    await connect(page);
    // Offers other journeys signed on any matching note may list this note too: the card is the fixed $950 offer.
    const offer = page.getByTestId("offer-received").filter({ hasText: `$950.00 for note #${onChainListed}` });
    await expect(offer).toBeVisible({ timeout: 30_000 });
    moves.length = 0;
    await offer.getByRole("button", { name: "Accept $950.00" }).click();
    await expect(offer.getByTestId("accept-price")).toHaveText("$950.00");
    await expect(offer).toContainText(offerer.address.slice(0, 6), { ignoreCase: true });
    await expect(offer).toContainText("one transaction that sells");
    const approvedAlready = (await read("isApprovedForAll", [buyer.address, deployed.marketplace])) as boolean;
    expect(moves, "nothing is sent before Confirm").toEqual([]);
    await offer.getByRole("button", { name: "Sell for $950.00" }).click();
    await expect(page.getByText(`Note #${onChainListed} sold for $950.00`).first()).toBeVisible({ timeout: 30_000 });
    expect(moves).toEqual(approvedAlready ? [SEND] : [SEND, SEND]);
    expect(await holderOf(onChainListed)).toBe(offerer.address.toLowerCase());
  });

  test("repaying an installment: no permit or transaction before Confirm, then one of each", async ({ browser }) => {
    const { page, moves } = await borrowerOnce(browser);
    await page.goto(`/loans/${reviewed.id}`);
    const panel = await connectToRepay(page);
    moves.length = 0;
    await panel.getByTestId("repay-installment").click();
    const review = page.getByTestId("review");
    await expect(review.getByTestId("review-amount")).toContainText("$");
    await expect(review.getByTestId("review-to")).toContainText("the loan note contract");
    await expect(review.getByTestId("review-wallet")).toContainText("(no gas), then one transaction that repays it");
    expect(moves, "nothing is signed or sent before Confirm").toEqual([]);
    const before = (await read("creditsOf", [buyer.address])) as bigint;
    await review.getByRole("button", { name: /^Confirm and pay \$/ }).click();
    await expect(page.getByText("Installment 1 paid").first()).toBeVisible({ timeout: 30_000 });
    expect(moves).toEqual([SIGN, SEND]);
    expect((await read("creditsOf", [buyer.address])) as bigint).toBeGreaterThan(before);
  });

  test("withdrawing credits: no transaction before Confirm, then one", async ({ browser }) => {
    const { page, moves } = await buyerOnce(browser);
    await page.goto("/portfolio");
    const credits = (await read("creditsOf", [buyer.address])) as bigint;
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("credits-available")).toHaveText(displayUsd(credits), { timeout: 5_000 });
    }).toPass({ timeout: 30_000 });
    await connect(page);
    moves.length = 0;
    await page.getByRole("button", { name: "Withdraw repayments" }).click();
    const review = page.getByTestId("review");
    await expect(review.getByTestId("review-amount")).toHaveText(displayUsd(credits));
    await expect(review.getByTestId("review-to")).toContainText(buyer.address.slice(0, 6), { ignoreCase: true });
    await expect(review.getByTestId("review-wallet")).toContainText("one transaction to the loan note contract");
    expect(moves, "nothing is sent before Confirm").toEqual([]);
    await review.getByRole("button", { name: `Confirm and withdraw ${displayUsd(credits)}` }).click();
    await expect(page.getByText(`${displayUsd(credits)} withdrawn to your wallet`).first()).toBeVisible({ timeout: 30_000 });
    expect(moves).toEqual([SEND]);
    expect(await read("creditsOf", [buyer.address])).toBe(0n);
  });

  test("depositing a note into the vault and withdrawing it: no transaction before each Confirm, then one each", async ({ browser }) => {
    const { page, moves } = await buyerOnce(browser);
    for (const move of ["deposit", "withdraw"] as const) {
      await page.goto(`/nft-transfer?tokenId=${reviewed.tokenId}&move=${move}`);
      await connect(page);
      await expect(page.getByLabel("NFT")).toHaveValue(reviewed.tokenId, { timeout: 30_000 });
      moves.length = 0;
      await page.getByRole("button", { name: move === "deposit" ? "Deposit to vault" : "Withdraw from vault" }).click();
      const review = page.getByTestId("review");
      await expect(review.getByTestId("review-note")).toContainText(`#${reviewed.tokenId}`);
      await expect(review.getByTestId("review-to")).toContainText(move === "deposit" ? "the vault" : buyer.address.slice(0, 6), { ignoreCase: true });
      await expect(review.getByTestId("review-wallet")).toContainText("one transaction");
      expect(moves, `nothing is sent before the ${move} is confirmed`).toEqual([]);
      await review.getByRole("button", { name: move === "deposit" ? "Confirm the deposit" : "Confirm the withdrawal" }).click();
      await expect(page.getByText(move === "deposit" ? `Note #${reviewed.tokenId} is in the vault` : `Note #${reviewed.tokenId} is out of the vault`).first()).toBeVisible({ timeout: 30_000 });
      expect(moves).toEqual([SEND]);
      expect(await holderOf(reviewed.tokenId)).toBe((move === "deposit" ? deployed.vault : buyer.address).toLowerCase());
    }
  });

  test("paying off: no permit or transaction before Confirm, then one of each, and the note is burned", async ({ browser }) => {
    const { page, moves } = await borrowerOnce(browser);
    await page.goto(`/loans/${reviewed.id}`);
    const panel = await connectToRepay(page);
    moves.length = 0;
    await panel.getByTestId("repay-payoff").click();
    const review = page.getByTestId("review");
    await expect(review.getByTestId("review-amount")).toContainText("$");
    await expect(review.getByTestId("review-why")).toContainText("payoff amount for today");
    const amount = (await review.getByTestId("review-amount").textContent())!.trim();
    await expect(review.getByTestId("review-wallet")).toContainText(`a permit for ${amount}`);
    expect(moves, "nothing is signed or sent before Confirm").toEqual([]);
    await review.getByRole("button", { name: /^Confirm and pay off \$/ }).click();
    await expect(page.getByText("Loan paid off").first()).toBeVisible({ timeout: 30_000 });
    expect(moves).toEqual([SIGN, SEND]);
    await expect(read("ownerOf", [BigInt(reviewed.tokenId)])).rejects.toThrow();
  });

  test("paying what is past due: no permit or transaction before Confirm, then one of each", async ({ browser }) => {
    // The chain moves past the secured loan's maturity and grace period (it is then defaulted): the other loan is late.
    await defaultLoan(api2, deployed, secured, admin);
    const { page, moves } = await borrowerOnce(browser);
    await page.goto(`/loans/${pastDue.id}`);
    await expect(page.getByTestId("loan-past-due")).toContainText("is past due since", { timeout: 20_000 });
    const panel = await connectToRepay(page);
    moves.length = 0;
    await panel.getByTestId("repay-past-due").click();
    const review = page.getByTestId("review");
    const due = (await read("amountDueNow", [BigInt(pastDue.tokenId)])) as bigint;
    await expect(review.getByTestId("review-amount")).toHaveText(displayUsd(due));
    await expect(review.getByTestId("review-late-fees")).toContainText("$");
    await expect(review.getByTestId("review-wallet")).toContainText(`a permit for ${displayUsd(due)}`);
    expect(moves, "nothing is signed or sent before Confirm").toEqual([]);
    await review.getByRole("button", { name: `Confirm and pay ${displayUsd(due)}` }).click();
    await expect(page.getByText("Everything past due is paid: the loan is current").first()).toBeVisible({ timeout: 30_000 });
    expect(moves).toEqual([SIGN, SEND]);
    expect(await read("amountDueNow", [BigInt(pastDue.tokenId)])).toBe(0n);
    await page.context().close();
  });

  test("claiming collateral after a default: no transaction before Confirm claim, then one", async ({ browser }) => {
    const { page, moves } = await buyerOnce(browser);
    await page.goto(`/marketplace/nft/${secured.tokenId}`);
    await connect(page);
    const collateral = page.getByTestId("note-collateral");
    moves.length = 0;
    await collateral.getByTestId("claim-collateral").click({ timeout: 30_000 });
    await expect(collateral.getByTestId("claim-words")).toContainText("The note is settled and burned");
    await expect(collateral.getByTestId("claim-words")).toContainText(buyer.address.slice(0, 6), { ignoreCase: true });
    await expect(collateral.getByTestId("claim-sends")).toContainText("one transaction to the collateral escrow contract");
    expect(moves, "nothing is sent before Confirm").toEqual([]);
    await collateral.getByTestId("claim-confirm").click();
    await expect(page.getByText("is now in your wallet").first()).toBeVisible({ timeout: 30_000 });
    expect(moves).toEqual([SEND]);
    await page.context().close();
  });
});
