import { test, expect } from "@playwright/test";
import { loginByForm, newAccount, registerByApi, skipSplash } from "./helpers";
import { query } from "./db";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

/**
 * Issue 18 §3: a KYC decision made while the user was away (no live event reached the page) shows as soon as a page
 * opens, not only after a visit to /kyc.
 */
test.beforeEach(async ({ page }) => skipSplash(page));

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
