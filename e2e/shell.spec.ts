import { test, expect } from "@playwright/test";
import { newAccount, registerByApi, loginByForm, screenshot, skipSplash } from "./helpers";
import { DEMO, login } from "./investors";

test("the splash shows first, once per tab, and fades away", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("splash")).toBeVisible();
  await expect(page.getByTestId("splash")).toContainText("Loading");
  await expect(page.getByTestId("splash")).toBeHidden({ timeout: 5000 });
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("splash")).toHaveCount(0);
});

test("a shared note link and a signed-in user's new tab open without the splash, the note's page in one request", async ({ page, context }) => {
  // A note the treasury lists: the seeded admin approves the seeded borrower's request.
  const admin = await login(page.request, DEMO.admin.email, DEMO.admin.password);
  const borrower = await login(page.request, DEMO.borrower.email, DEMO.borrower.password);
  const requested = await page.request.post("/api/loans/request", {
    data: { amount: "1600", purpose: "education", interestRate: 7, termMonths: 12 },
    headers: { authorization: `Bearer ${borrower}` },
  });
  expect(requested.ok(), await requested.text()).toBeTruthy();
  const loan = (await requested.json()).data as { _id: string; loanNumber: number };
  const approved = await page.request.put(`/api/admin/loans/${loan._id}/approve`, { data: {}, headers: { authorization: `Bearer ${admin}` } });
  expect(approved.ok(), await approved.text()).toBeTruthy();

  const warnings: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "warning" || m.type() === "error") warnings.push(m.text());
  });
  const apiCalls: string[] = [];
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith("/api/") && !path.startsWith("/api/socket.io")) apiCalls.push(path);
  });
  await page.goto(`/marketplace/nft/${loan.loanNumber}`);
  await expect(page.getByTestId("listing-price")).toHaveText(/^\$[\d,]+\.\d{2}$/, { timeout: 20_000 });
  await expect(page.getByTestId("splash")).toHaveCount(0);
  // The note, its book and its owners arrive together: none of them is asked for again on its own.
  const noteCalls = apiCalls.filter((p) => p.includes(`/${loan.loanNumber}`));
  expect(noteCalls).toEqual([`/api/nfts/${loan.loanNumber}/page`]);

  // Signed in, a new tab (its own sessionStorage) is a warm start: the page, no splash.
  const account = newAccount("warm-start");
  await registerByApi(page, account);
  await loginByForm(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
  const tab = await context.newPage();
  await tab.goto("/dashboard");
  await expect(tab.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(tab.getByTestId("splash")).toHaveCount(0);
  // Live updates are announced once in a tab, not again on each load of a page.
  await expect(tab.locator("html")).toHaveAttribute("data-realtime", "live", { timeout: 30_000 });
  await tab.reload();
  await expect(tab.locator("html")).toHaveAttribute("data-realtime", "live", { timeout: 30_000 });
  await expect(tab.getByText("Real-time updates enabled!")).toHaveCount(0);
  expect(warnings.filter((w) => /HydrateFallback/.test(w))).toEqual([]);
});

test.describe("with the splash already seen", () => {
  test.beforeEach(async ({ page }) => skipSplash(page));

  test("the landing page shows every section and keeps one FAQ answer open", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Get Started Free" })).toHaveAttribute("href", "/register");
    await expect(page.getByRole("button", { name: /Watch Demo/ })).toBeVisible();
    for (const title of ["Secure and transparent", "NFT tokenization", "Global access", "Competitive rates"]) {
      await expect(page.getByRole("heading", { name: title })).toBeVisible();
    }
    await expect(page.getByText("$2.5M+")).toBeVisible();
    const questions = page.locator(".faq__item button");
    await expect(questions).toHaveCount(8);
    await questions.nth(2).click();
    await expect(page.locator(".faq__answer:visible")).toHaveCount(1);
    await expect(questions.nth(2)).toHaveAttribute("aria-expanded", "true");
    await expect(questions.nth(0)).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("link", { name: "Create your free account" })).toHaveAttribute("href", "/register");
    await screenshot(page, "01-landing");
  });

  test("visitors are sent to /login from signed-in pages and unknown paths go to /", async ({ page }) => {
    for (const path of ["/dashboard", "/profile", "/loans/my-loans", "/admin", "/admin/users"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
    await page.goto("/no/such/page");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("link", { name: "Sign Up Free" }).first()).toBeVisible();
  });

  test("a visitor opens a shared note link and sees its price and terms; buying asks to sign in and comes back", async ({ page }) => {
    // A note the treasury lists: the seeded admin approves the seeded borrower's request.
    const admin = await login(page.request, DEMO.admin.email, DEMO.admin.password);
    const borrower = await login(page.request, DEMO.borrower.email, DEMO.borrower.password);
    const requested = await page.request.post("/api/loans/request", {
      data: { amount: "1800", purpose: "education", interestRate: 7, termMonths: 12 },
      headers: { authorization: `Bearer ${borrower}` },
    });
    expect(requested.ok(), await requested.text()).toBeTruthy();
    const loan = (await requested.json()).data as { _id: string; loanNumber: number };
    const approved = await page.request.put(`/api/admin/loans/${loan._id}/approve`, { data: {}, headers: { authorization: `Bearer ${admin}` } });
    expect(approved.ok(), await approved.text()).toBeTruthy();

    await page.goto("/marketplace");
    await page.getByLabel("Search").fill(`#${loan.loanNumber}`);
    const card = page.getByTestId("note-card");
    await expect(card).toHaveCount(1, { timeout: 30_000 });
    await expect(card.getByRole("link", { name: /View Details/ })).toHaveAttribute("href", `/marketplace/nft/${loan.loanNumber}`);
    // The link as it is shared: opened on its own, in a fresh page load, with no session.
    await page.goto(`/marketplace/nft/${loan.loanNumber}`);
    const shared = page.url();
    await expect(page.getByTestId("listing-price")).toHaveText(/^\$[\d,]+\.\d{2}$/);
    await expect(page.getByTestId("price-servicing")).toBeVisible();
    // At 100% of par a new note yields a little under its rate, and the page says why.
    await expect(page.getByTestId("yield-why")).toHaveText("Below the note's 7% rate: par includes interest through the end of today, paid now, before that day has run.");
    const signIn = page.getByTestId("sign-in-to-act").getByRole("link", { name: "Sign in to buy this note" });
    await expect(signIn).toBeVisible();
    await signIn.click();
    await expect(page).toHaveURL(/\/login$/);
    // Signing in on the page the link led to (not a fresh /login) brings the visitor back to the note.
    const account = newAccount("shared-note");
    await registerByApi(page, account);
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByRole("button", { name: "Sign in as User" }).click();
    await expect(page).toHaveURL(shared);
  });

  test("a signed-in user is kept out of admin pages and away from login and register", async ({ page }) => {
    const account = newAccount("guard");
    await registerByApi(page, account);
    await loginByForm(page, account);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/register");
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/loan/apply");
    await expect(page).toHaveURL(/\/loans\/request$/);
    await page.goto("/nft/7");
    await expect(page).toHaveURL(/\/marketplace\/nft\/7$/);
    await expect(page.getByRole("banner").getByTestId("logo-link")).toHaveAttribute("href", "/dashboard");
  });

  test("an admin is sent from user pages to /admin and reaches every admin page", async ({ page }) => {
    const admin = newAccount("admin");
    await registerByApi(page, admin, { role: "admin", adminInviteCode: "e2e-invite" });
    await loginByForm(page, admin, "Admin");
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByTestId("admin-badge")).toBeVisible();
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/admin$/);
    for (const path of ["/admin/overview", "/admin/loans", "/admin/request", "/admin/marketplace", "/admin/users", "/admin/portfolio", "/admin/kyc"]) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    }
    await page.goto("/profile");
    await expect(page.getByTestId("admin-info")).toContainText("Super Admin");
    await expect(page.getByRole("banner").getByTestId("logo-link")).toHaveAttribute("href", "/admin");
    await screenshot(page, "08-profile-admin");
  });

  test("the theme follows the system first and the choice survives a reload", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await page.getByTestId("theme-toggle").first().click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
  });

  test("the mobile menu mirrors the top bar", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/");
    await page.getByTestId("mobile-menu-button").click();
    const menu = page.getByTestId("mobile-menu");
    await expect(menu.getByRole("link", { name: "Login" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Sign Up Free" })).toBeVisible();
    await screenshot(page, "02-mobile-menu");
    await menu.getByRole("link", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});
