import { test, expect, type APIRequestContext } from "@playwright/test";
import { loginByForm, newAccount, registerByApi, skipSplash } from "./helpers";
import { query } from "./db";
import { E2E_ADMIN_INVITE } from "./stack";
import { expectFitsScreen, PHONE } from "./phone";

/** Where login and the footer lead, and what the marketplace says of a wrong amount filter. */
test.beforeEach(async ({ page }) => skipSplash(page));

test("a visitor who follows a protected link signs in and lands on that page, not the dashboard", async ({ page }) => {
  const account = newAccount("return");
  await registerByApi(page, account);
  await page.goto("/transactions?type=repayment");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in as User" }).click();
  await expect(page).toHaveURL(/\/transactions\?type=repayment$/);

  // A user sent to an admin page is not brought back there: it is not theirs.
  await page.getByRole("button", { name: "Logout" }).first().click();
  await page.goto("/admin/users");
  await loginByForm(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("an admin returns to the admin page they opened, and the footer's links stay on admin pages", async ({ page }) => {
  const admin = newAccount("footer-admin");
  await registerByApi(page, admin, { role: "admin", adminInviteCode: E2E_ADMIN_INVITE });
  await page.goto("/admin/contact");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Admin", { exact: true }).check();
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Sign in as Admin" }).click();
  await expect(page).toHaveURL(/\/admin\/contact$/);

  const footer = page.getByRole("contentinfo");
  for (const [name, path] of [
    ["Marketplace", "/admin/marketplace"],
    ["Request a Loan", "/admin/request"],
    ["Portfolio", "/admin/portfolio"],
    ["KYC Verification", "/admin/kyc"],
  ]) {
    await footer.getByRole("link", { name }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
});

/** A listed note, so cards are on the page before the filters go wrong: the demo borrower's loan, approved by the demo admin. */
async function listANote(request: APIRequestContext) {
  const token = async (email: string, password: string) => (await (await request.post("/api/auth/login", { data: { email, password } })).json()).data.token as string;
  const borrower = await token("borrower@loanmint.local", "Borrower123!");
  const admin = await token("admin@loanmint.local", "Admin123!");
  const requested = await request.post("/api/loans/request", { data: { amount: "3000", purpose: "education", interestRate: 7, termMonths: 12 }, headers: { authorization: `Bearer ${borrower}` } });
  expect(requested.ok(), await requested.text()).toBeTruthy();
  const approved = await request.put(`/api/admin/loans/${(await requested.json()).data._id}/approve`, { data: {}, headers: { authorization: `Bearer ${admin}` } });
  expect(approved.ok(), await approved.text()).toBeTruthy();
}

test("a wrong marketplace amount filter is named on its field and no old cards stay on the page", async ({ browser, request }) => {
  test.setTimeout(300_000);
  await listANote(request);
  for (const size of [{ viewport: { width: 1280, height: 900 } }, PHONE]) {
    const context = await browser.newContext(size);
    const page = await context.newPage();
    await skipSplash(page);
    const account = newAccount("filters");
    await registerByApi(page, account);
    await query("update users set kyc_status = 'approved' where email = $1", [account.email]);
    await loginByForm(page, account);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/marketplace");
    await expect(page.getByTestId("tile-total-listed")).not.toContainText("—");
    await expect(page.getByTestId("note-card").first()).toBeVisible({ timeout: 30_000 });

    await page.getByLabel("Min amount ($)").fill("abc");
    await expect(page.locator("#mk-min-error")).toHaveText("Amount filters must be non-negative amounts in USD");
    await expect(page.getByLabel("Min amount ($)")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId("note-card")).toHaveCount(0);
    await expect(page.getByTestId("marketplace-invalid-filters")).toBeVisible();

    await page.getByLabel("Min amount ($)").fill("5000");
    await page.getByLabel("Max amount ($)").fill("1000");
    await expect(page.locator("#mk-min-error")).toHaveText("Minimum amount cannot exceed maximum amount");
    await expect(page.getByTestId("note-card")).toHaveCount(0);
    await expectFitsScreen(page);

    await page.getByLabel("Max amount ($)").fill("");
    await expect(page.locator("#mk-min-error")).toHaveCount(0);
    await expect(page.getByTestId("marketplace-invalid-filters")).toHaveCount(0);
    await context.close();
  }
});
