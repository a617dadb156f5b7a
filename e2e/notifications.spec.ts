import { test, expect, request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { loginByForm, skipSplash } from "./helpers";
import { E2E_BASE_URL } from "./stack";

/**
 * The notifications page: a borrower opens it from the dashboard, a decision on their request arrives live as an
 * unread notice, they mark it read and follow it to the loan; at 390 px the page fits the screen and every button on
 * it can be reached.
 */
const BORROWER = { email: "borrower@loanmint.local", password: "Borrower123!" };
const ADMIN = { email: "admin@loanmint.local", password: "Admin123!" };
const REASON = `Journey check ${Date.now().toString(36)}`;

let api: APIRequestContext;

async function tokenOf(account: { email: string; password: string }) {
  const res = await api.post("/api/auth/login", { data: account });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { data: { token: string } }).data.token;
}

test.beforeAll(async () => {
  api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
});
test.afterAll(async () => api?.dispose());

test("a borrower reads a live notice on the notifications page, follows it, and the page fits a phone", async ({ page }) => {
  const borrower = await tokenOf(BORROWER);
  const admin = await tokenOf(ADMIN);
  const requested = await api.post("/api/loans/request", { data: { amount: "3000", purpose: "education", interestRate: 9, termMonths: 12 }, headers: { authorization: `Bearer ${borrower}` } });
  expect(requested.ok(), await requested.text()).toBeTruthy();
  const loanId = String((await requested.json()).data._id);

  await skipSplash(page);
  await loginByForm(page, BORROWER);
  await page.waitForURL("**/dashboard");
  await page.getByTestId("notices-see-all").click();
  await page.waitForURL("**/notifications");
  await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
  // Loaded (a fresh stack's borrower may have none yet: the empty state).
  await expect(page.getByTestId("notifications-unread")).toBeVisible();

  // The decision arrives by the socket's push while the page is open: no reload.
  const rejected = await api.put(`/api/admin/loans/${loanId}/reject`, { data: { rejectionReason: REASON }, headers: { authorization: `Bearer ${admin}` } });
  expect(rejected.ok(), await rejected.text()).toBeTruthy();
  const notice = page.getByTestId("notice").filter({ hasText: REASON });
  await expect(notice).toHaveCount(1);
  await expect(notice).toHaveAttribute("data-state", "unread");
  await expect(notice.getByText("Unread", { exact: true })).toBeVisible();
  const unreadBefore = Number((await page.getByTestId("notifications-unread").textContent())?.match(/\d+/)?.[0]);

  await notice.getByTestId("notice-mark-read").click();
  await expect(notice).toHaveAttribute("data-state", "read");
  await expect(notice.getByTestId("notice-mark-read")).toHaveCount(0);
  await expect(page.getByTestId("notifications-unread")).toHaveText(`${unreadBefore - 1} unread`);
  // Read on the server too, not only on screen.
  await page.reload();
  await expect(page.getByTestId("notice").filter({ hasText: REASON })).toHaveAttribute("data-state", "read");

  await page.getByTestId("notice").filter({ hasText: REASON }).getByTestId("notice-open").click();
  await page.waitForURL(`**/loans/${loanId}`);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/notifications");
  await expect(page.getByTestId("notice").filter({ hasText: REASON })).toBeVisible();
  await page.waitForLoadState("networkidle", { timeout: 5000 }).catch(() => undefined);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const outside = await page.locator("main button, main a.btn, .page button, .page a.btn").evaluateAll((els) =>
    els
      .map((el) => ({ label: (el.textContent ?? "").trim(), box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.left < 0 || box.right > window.innerWidth))
      .map(({ label, box }) => `${label} (${Math.round(box.left)}–${Math.round(box.right)} px)`),
  );
  expect(outside, "every button on the page is inside the screen").toEqual([]);
  expect(await page.locator(".page button, .page a.btn").count()).toBeGreaterThan(1);
});
