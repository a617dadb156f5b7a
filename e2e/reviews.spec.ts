import { test, expect, request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { createPublicClient, createWalletClient, http, maxUint256, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { loginByForm, screenshot, skipSplash } from "./helpers";
import { connect, DEMO, login, person, signIn, type Person } from "./investors";
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
