import { test, expect, type Page } from "@playwright/test";
import { loginByForm, newAccount, skipSplash } from "./helpers";
import { expectFitsScreen, PHONE } from "./phone";

/** The small things a user minds on the loan forms, the registration form, toasts and admin figures. */
test.beforeEach(async ({ page }) => skipSplash(page));

const BORROWER = { email: "borrower@loanmint.local", password: "Borrower123!" };
const ADMIN = { email: "admin@loanmint.local", password: "Admin123!" };

const toasts = (page: Page, text: string) => page.locator(".toast").filter({ hasText: text });

test("the loan wizard reads 12,000 as typed, shows no payment for a 75% rate and names collateral types in words", async ({ browser }) => {
  for (const size of [{ viewport: { width: 1280, height: 900 } }, PHONE]) {
    const context = await browser.newContext(size);
    const page = await context.newPage();
    await skipSplash(page);
    await loginByForm(page, BORROWER);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/loans/request");

    const wizard = page.getByTestId("loan-wizard");
    await wizard.getByLabel("Loan amount (USD)").fill("12,000");
    await wizard.getByLabel("Purpose").selectOption("Education");
    await expect(wizard.locator(".field__error")).toHaveCount(0);
    await wizard.getByRole("button", { name: "Next" }).click();

    await wizard.getByLabel("Interest rate (% a year)").fill("75");
    await wizard.getByLabel("Interest rate (% a year)").blur();
    await expect(page.getByTestId("wizard-estimate")).toHaveCount(0);
    await expect(wizard.getByRole("button", { name: "Next" })).toBeDisabled();

    // 12,000 at 7% over 12 months: the domain schedule's payment, shown only for terms the request would accept.
    await wizard.getByLabel("Interest rate (% a year)").fill("7");
    await wizard.getByLabel("Term").selectOption("12");
    await expect(page.getByTestId("wizard-estimate")).toContainText("$1,038.32");
    await wizard.getByRole("button", { name: "Next" }).click();

    const types = await wizard.getByLabel("Collateral type").locator("option").allTextContents();
    expect(types).toContain("NFT");
    expect(types).not.toContain("nft");
    await expect(wizard.getByText("Images of the collateral")).toHaveCount(0);
    if (size === PHONE) await expectFitsScreen(page);
    await context.close();
  }
});

test("four submits of an empty loan form raise one toast, and each field says what is wrong", async ({ page }) => {
  await loginByForm(page, BORROWER);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/loans");
  const form = page.getByTestId("loan-form");
  const submit = form.getByRole("button", { name: /Submit|Request/ });
  await expect(submit).toBeEnabled({ timeout: 30_000 });
  for (let i = 0; i < 4; i += 1) await submit.click();
  await expect(toasts(page, "Please fix the errors in the form")).toHaveCount(1);
  await expect(form.locator(".field__error").first()).toBeVisible();
});

test("a wrong admin invite code is said once, on its field", async ({ page }) => {
  const account = newAccount("invite");
  await page.goto("/register");
  await page.getByRole("radio", { name: /Administrator/ }).check();
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Lovelace");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Street").fill("1 Main St");
  await page.getByLabel("Admin invite code").fill("not-the-code");
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Confirm password", { exact: true }).fill(account.password);
  const terms = page.getByRole("checkbox");
  for (const box of await terms.all()) await box.check();
  await page.getByRole("button", { name: /Create/ }).click();

  await expect(page.getByText("This admin invite code is not valid")).toHaveCount(1);
  await expect(page.getByLabel("Admin invite code")).toHaveAttribute("aria-invalid", "true");
  await expect(toasts(page, "Access denied")).toHaveCount(0);
  await expect(page).toHaveURL(/\/register$/);
});

test("on a phone the treasury's figures stay on one line each, never broken mid-number", async ({ browser }) => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await skipSplash(page);
  await loginByForm(page, ADMIN, "Admin");
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/admin/portfolio");
  const balance = page.getByTestId("treasury-balance");
  await expect(balance).toContainText("$", { timeout: 30_000 });
  const figures = page.locator(".admin-page .stat__value");
  for (const figure of await figures.all()) {
    const text = (await figure.textContent()) ?? "";
    if (!/\d/.test(text)) continue;
    // One line box for the figure's text: a figure that wraps has two or more.
    const lines = await figure.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
    });
    expect(lines, `"${text}" on one line`).toBe(1);
  }
  await expectFitsScreen(page);
  await context.close();
});
