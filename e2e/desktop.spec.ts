import { test, expect, request as playwrightRequest, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { installTestWallet } from "./testWallet";
import { loginByForm, skipSplash } from "./helpers";
import { DEMO, login } from "./investors";
import { expectActionsOnScreen, expectFitsScreen } from "./phone";
import { E2E_BASE_URL } from "./stack";

/**
 * The journeys at 1280 px, as the phone journeys at 390: every page of a borrower, an investor and an admin fits the
 * screen's width and shows every button and link of its content inside it.
 */
const DESKTOP = { viewport: { width: 1280, height: 800 } } as const;
const INVESTOR = { email: "investor@loanmint.local", password: "Investor123!" };

let api: APIRequestContext;
let tokenId = "";
let loanId = "";

async function desktopPage(browser: Browser, key?: `0x${string}`): Promise<Page> {
  const page = await (await browser.newContext({ ...DESKTOP })).newPage();
  await skipSplash(page);
  if (key) await installTestWallet(page, key);
  return page;
}

async function everyActionOnScreen(page: Page, paths: string[]) {
  for (const path of paths) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await expectFitsScreen(page);
    await expectActionsOnScreen(page);
  }
}

test.describe.serial("journeys on a 1280 px screen", () => {
  test.beforeAll(async () => {
    api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
    const borrower = await login(api, DEMO.borrower.email, DEMO.borrower.password);
    const admin = await login(api, DEMO.admin.email, DEMO.admin.password);
    const requested = await api.post("/api/loans/request", { data: { amount: "6000", purpose: "education", interestRate: 8, termMonths: 12 }, headers: { authorization: `Bearer ${borrower}` } });
    expect(requested.ok(), await requested.text()).toBeTruthy();
    const loan = (await requested.json()).data;
    const approved = await api.put(`/api/admin/loans/${loan._id}/approve`, { data: {}, headers: { authorization: `Bearer ${admin}` } });
    expect(approved.ok(), await approved.text()).toBeTruthy();
    tokenId = String(loan.loanNumber);
    loanId = String(loan._id);
  });

  test.afterAll(async () => api?.dispose());
  test.beforeEach(() => test.setTimeout(240_000));

  test("a borrower's pages show every action inside the screen", async ({ browser }) => {
    const page = await desktopPage(browser, DEV_ACCOUNTS.demoBorrower);
    await loginByForm(page, DEMO.borrower);
    await expect(page).toHaveURL(/\/dashboard$/);
    await everyActionOnScreen(page, ["/dashboard", "/loans/my-loans", "/loans/request", `/loans/${loanId}`, "/kyc", "/profile", "/transactions", "/notifications"]);
  });

  test("an investor's pages show every action inside the screen", async ({ browser }) => {
    const page = await desktopPage(browser, DEV_ACCOUNTS.demoInvestor);
    await loginByForm(page, INVESTOR);
    await expect(page).toHaveURL(/\/dashboard$/);
    await everyActionOnScreen(page, ["/marketplace", `/marketplace/nft/${tokenId}`, "/portfolio", "/nft-transfer", `/explorer/token/${tokenId}`]);
  });

  test("an admin's pages show every action inside the screen", async ({ browser }) => {
    const page = await desktopPage(browser);
    await loginByForm(page, DEMO.admin, "Admin");
    await expect(page).toHaveURL(/\/admin$/);
    await everyActionOnScreen(page, ["/admin", "/admin/loans", "/admin/request", "/admin/marketplace", "/admin/portfolio", "/admin/kyc", "/admin/users", "/admin/contact", "/admin/reconciliation"]);
  });
});
