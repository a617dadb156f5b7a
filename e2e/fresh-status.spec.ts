import { test, expect, type WebSocketRoute } from "@playwright/test";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { E2E_ADMIN_INVITE } from "./stack";
import { loginByForm, newAccount, registerByApi, skipSplash } from "./helpers";
import { query } from "./db";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

/**
 * A KYC decision made while the user was away (no live event reached the page) shows as soon as a page
 * opens, not only after a visit to /kyc.
 */
test.beforeEach(async ({ page }) => skipSplash(page));

const PNG = readFileSync(fileURLToPath(new URL("./fixtures/avatar.png", import.meta.url)));

test("a KYC decision made while the user was away shows on the next page opened", async ({ page }) => {
  const account = newAccount("away");
  await registerByApi(page, account);
  const wallet = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
  await query("update users set kyc_status = 'pending', wallet_address = $1 where email = $2", [wallet, account.email]);
  await loginByForm(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("kyc-banner")).toContainText("KYC Under Review");
  await page.goto("/loans/request");
  await expect(page.getByTestId("borrow-gate")).toContainText("under review");

  // Decided behind the page's back: straight in the database, so no live event tells the open page.
  await query("update users set kyc_status = 'approved' where email = $1", [account.email]);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("kyc-banner")).toHaveCount(0);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Request Loan" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("borrow-gate")).toHaveCount(0);

  // And a rejection, seen after a reload (the session kept in the browser is read again, not trusted).
  await query("update users set kyc_status = 'rejected' where email = $1", [account.email]);
  await page.reload();
  await expect(page.getByTestId("borrow-gate")).toContainText("not approved");
});

test("a KYC decision made while the live connection was down shows when it reconnects, without opening another page", async ({ page }) => {
  // The test holds the page's WebSocket: it can drop it and refuse reconnections for a while, as a dead network would.
  let blocked = false;
  let current: WebSocketRoute | null = null;
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    if (blocked) return void ws.close();
    ws.connectToServer();
    current = ws;
  });
  const account = newAccount("reconnect");
  await registerByApi(page, account);
  const token = (await (await page.request.post("/api/auth/login", { data: account })).json()).data.token as string;
  const uploaded = await page.request.post("/api/users/kyc/upload", {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { idDocumentType: "passport", idDocument: { name: "passport.png", mimeType: "image/png", buffer: PNG } },
  });
  expect(uploaded.ok(), await uploaded.text()).toBeTruthy();
  await loginByForm(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("kyc-banner")).toContainText("KYC Under Review");
  await expect(page.getByTestId("live-badge").first()).toHaveText("Live updates");

  blocked = true;
  await current!.close();
  await expect(page.getByTestId("live-badge").first()).not.toHaveText("Live updates");
  // The admin decides while the user's socket is down: the live notice is sent to nobody.
  const admin = newAccount("reconnect-admin");
  await registerByApi(page, admin, { role: "admin", adminInviteCode: E2E_ADMIN_INVITE });
  const adminToken = (await (await page.request.post("/api/auth/login", { data: admin })).json()).data.token as string;
  const [{ id }] = await query<{ id: string }>("select id from users where email = $1", [account.email]);
  const decided = await page.request.put(`/api/admin/users/${id}/kyc`, { headers: { Authorization: `Bearer ${adminToken}` }, data: { action: "approve", notes: "Fine" } });
  expect(decided.ok(), await decided.text()).toBeTruthy();
  await expect(page.getByTestId("kyc-banner")).toContainText("KYC Under Review");

  // The network comes back: the socket reconnects and the page reads the user again, on the same page.
  blocked = false;
  await expect(page.getByTestId("live-badge").first()).toHaveText("Live updates", { timeout: 30_000 });
  await expect(page.getByTestId("kyc-banner")).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboard$/);
});
