import { test, expect, request as playwrightRequest, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { createWalletClient, http, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { installTestWallet } from "./testWallet";
import { loginByForm, screenshot, skipSplash } from "./helpers";
import { PHONE, expectActionsOnScreen, expectFitsScreen, expectMenuTappable, expectPhoneReady, phoneScreenshot } from "./phone";
import { E2E_BASE_URL, E2E_RPC_URL } from "./stack";

/**
 * The three journeys at 390 px: every page a visitor, a borrower, an investor and an admin
 * opens fits the screen, and every link of the phone menu can be tapped on each of them.
 */
const DEMO = {
  admin: { email: "admin@loanmint.local", password: "Admin123!" },
  borrower: { email: "borrower@loanmint.local", password: "Borrower123!" },
  investor: { email: "investor@loanmint.local", password: "Investor123!" },
};

let api: APIRequestContext;
let tokenId = "";
let loanId = "";

async function tokenOf(account: { email: string; password: string }) {
  const res = await api.post("/api/auth/login", { data: account });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function phonePage(browser: Browser, key?: `0x${string}`): Promise<Page> {
  const page = await (await browser.newContext({ ...PHONE })).newPage();
  await skipSplash(page);
  if (key) await installTestWallet(page, key);
  return page;
}

test.describe.serial("journeys on a phone", () => {
  test.beforeAll(async () => {
    api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
    const borrower = await tokenOf(DEMO.borrower);
    const admin = await tokenOf(DEMO.admin);
    const requested = await api.post("/api/loans/request", { data: { amount: "12000", purpose: "education", interestRate: 9, termMonths: 18 }, headers: { authorization: `Bearer ${borrower}` } });
    expect(requested.ok(), await requested.text()).toBeTruthy();
    const loan = (await requested.json()).data;
    const approved = await api.put(`/api/admin/loans/${loan._id}/approve`, { data: {}, headers: { authorization: `Bearer ${admin}` } });
    expect(approved.ok(), await approved.text()).toBeTruthy();
    tokenId = String(loan.loanNumber);
    loanId = String(loan._id);
  });

  test.afterAll(async () => api?.dispose());
  // Each journey opens a dozen pages and the menu on each.
  test.beforeEach(() => test.setTimeout(240_000));

  test("a visitor reaches Login and Sign Up from the phone menu, and public pages fit the screen", async ({ browser }) => {
    const page = await phonePage(browser);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectFitsScreen(page);
    const labels = await expectMenuTappable(page);
    expect(labels).toEqual(expect.arrayContaining(["Login", "Sign Up Free"]));
    await page.getByTestId("mobile-menu-button").click();
    await phoneScreenshot(page, "phone-visitor-menu");
    await page.getByTestId("mobile-menu").getByRole("link", { name: "Login" }).tap();
    await expect(page).toHaveURL(/\/login$/);
    await expectPhoneReady(page);
    for (const path of ["/register", "/legal", `/explorer/token/${tokenId}`]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectPhoneReady(page);
    }
  });

  test("a borrower's pages fit the screen and the menu works on each", async ({ browser }) => {
    const page = await phonePage(browser, DEV_ACCOUNTS.demoBorrower);
    await loginByForm(page, DEMO.borrower);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expectPhoneReady(page);
    await page.getByTestId("mobile-menu-button").click();
    await phoneScreenshot(page, "phone-user-menu");
    await page.getByTestId("mobile-menu").getByRole("link", { name: "My Loans" }).tap();
    await expect(page).toHaveURL(/\/loans\/my-loans$/);
    await expectPhoneReady(page);
    for (const path of ["/loans/request", `/loans/${loanId}`, "/kyc", "/profile", "/transactions", "/portfolio", "/marketplace", "/nft-transfer", `/marketplace/nft/${tokenId}`]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectPhoneReady(page);
      await screenshot(page, `phone-borrower${path.replaceAll("/", "-")}`);
    }
  });

  test("on a phone the note page leads with price, outstanding principal, yield and Buy, the long sections folded", async ({ browser }) => {
    const page = await phonePage(browser, DEV_ACCOUNTS.demoInvestor);
    await loginByForm(page, DEMO.investor);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto(`/marketplace/nft/${tokenId}`);
    const screen = page.viewportSize()!;
    for (const testId of ["listing-price", "outstanding-principal", "yield-to-maturity"]) {
      await expect(page.getByTestId(testId)).toBeInViewport();
    }
    // At 100% of par a 9% note yields a little less: par is the dirty price, and a note's first day already counts a
    // day's interest, paid at the purchase before it has run.
    await expect(page.getByTestId("yield-to-maturity")).toHaveText("8.97%");
    const buy = page.getByRole("button", { name: /^Buy for / });
    await expect(buy).toBeVisible();
    // Buy is within the first two screens, not after the schedule and the event log.
    expect((await buy.boundingBox())!.y).toBeLessThan(screen.height * 2);
    for (const fold of ["fold-schedule", "fold-events"]) {
      await expect(page.getByTestId(fold)).not.toHaveAttribute("open");
    }
    await expect(page.getByTestId("schedule")).toHaveCount(0);
    await phoneScreenshot(page, "phone-note-page");
    await page.getByTestId("fold-schedule").locator("summary").tap();
    await expect(page.getByTestId("schedule")).toBeVisible();
    await expectPhoneReady(page);
  });

  test("an admin's pages fit the screen, the admin bar included, and Logout is in the menu", async ({ browser }) => {
    const page = await phonePage(browser);
    await loginByForm(page, DEMO.admin, "Admin");
    await expect(page).toHaveURL(/\/admin$/);
    for (const path of ["/admin", "/admin/loans", "/admin/request", "/admin/marketplace", "/admin/portfolio", "/admin/kyc", "/admin/users", "/admin/contact", "/admin/reconciliation", "/profile"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectPhoneReady(page);
      await screenshot(page, `phone-admin${path.replaceAll("/", "-")}`);
    }
    await page.getByTestId("mobile-menu-button").click();
    await page.getByTestId("mobile-menu").getByRole("button", { name: "Logout" }).tap();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("tables read as labelled cards on a phone: no sideways scroll, every action on screen", async ({ browser }) => {
    const fits = async (page: Page, path: string, shot?: string) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await page.waitForLoadState("networkidle", { timeout: 5000 }).catch(() => undefined);
      await expectFitsScreen(page);
      await expectActionsOnScreen(page);
      if (shot) await screenshot(page, shot);
    };

    const admin = await phonePage(browser);
    await loginByForm(admin, DEMO.admin, "Admin");
    await expect(admin).toHaveURL(/\/admin$/);
    for (const path of ["/admin/request", "/admin/loans", "/admin/portfolio", "/admin/users", "/admin/kyc"]) {
      await fits(admin, path, `phone-tables${path.replaceAll("/", "-")}`);
    }
    // The request list's rows are cards: each action button is on screen, and each cell says what it is.
    await admin.goto("/admin/request");
    const row = admin.getByTestId("request-row").first();
    await expect(row).toBeVisible();
    expect(await row.locator("td[data-label]").count()).toBeGreaterThan(3);
    await expectActionsOnScreen(admin);

    const borrower = await phonePage(browser, DEV_ACCOUNTS.demoBorrower);
    await loginByForm(borrower, DEMO.borrower);
    await expect(borrower).toHaveURL(/\/dashboard$/);
    for (const path of [`/loans/${loanId}`, "/transactions", "/portfolio"]) await fits(borrower, path, `phone-tables${path.replaceAll("/", "-")}`);
    await borrower.goto(`/marketplace/nft/${tokenId}`);
    await borrower.getByTestId("fold-schedule").locator("summary").tap();
    await expect(borrower.getByTestId("schedule")).toBeVisible();
    await expectFitsScreen(borrower);
    await expectActionsOnScreen(borrower);

    const investor = await phonePage(browser, DEV_ACCOUNTS.demoInvestor);
    await loginByForm(investor, DEMO.investor);
    await expect(investor).toHaveURL(/\/dashboard$/);
    await fits(investor, "/portfolio", "phone-tables-portfolio-investor");

    // The explorer: an address named by 51 events (approvals the demo investor gives it) pages them by 50, so
    // its page stays a few screens tall, and Next shows the 51st.
    const config = (await (await api.get("/api/config")).json()).data as { contracts: { stablecoin: Address } };
    const spender = privateKeyToAccount(generatePrivateKey()).address;
    const wallet = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.demoInvestor), chain: foundry, transport: http(E2E_RPC_URL) });
    for (let i = 1; i <= 51; i++) {
      await wallet.writeContract({ address: config.contracts.stablecoin, abi: testDollarAbi, functionName: "approve", args: [spender, BigInt(i)] });
    }
    const visitor = await phonePage(browser);
    await fits(visitor, `/explorer/token/${tokenId}`, "phone-tables-explorer-token");
    const tx = (await visitor.getByTestId("events").locator("a[href^='/explorer/tx/']").first().getAttribute("href"))!;
    await fits(visitor, tx, "phone-tables-explorer-tx");
    await fits(visitor, `/explorer/address/${spender}`);
    const rows = visitor.getByTestId("events").locator("tbody tr");
    await expect(rows).toHaveCount(50);
    const height = await visitor.evaluate(() => document.documentElement.scrollHeight);
    expect(height, `the address page is ${height} px tall`).toBeLessThan(20_000);
    const pages = visitor.getByTestId("events-pages");
    await expect(pages).toContainText("Page 1 of 2");
    await phoneScreenshot(visitor, "phone-tables-explorer-address");
    await pages.getByRole("button", { name: "Next" }).tap();
    await expect(pages).toContainText("Page 2 of 2");
    await expect(rows).toHaveCount(1);
    await expectFitsScreen(visitor);
    await expectActionsOnScreen(visitor);
    await screenshot(visitor, "phone-tables-explorer-address-page2");
  });
});
