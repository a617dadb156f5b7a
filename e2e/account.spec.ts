import { test, expect } from "@playwright/test";
import { fileURLToPath } from "node:url";
import { loginByForm, newAccount, registerByApi, screenshot, skipSplash } from "./helpers";

test.beforeEach(async ({ page }) => skipSplash(page));

test("register, login, edit the profile, upload a picture, change the password and log out", async ({ page }) => {
  const account = newAccount("journey");

  // Registration: the form's own rules first, then a real account.
  await page.goto("/register");
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await page.getByRole("button", { name: "Create User Account" }).click();
  await expect(page.getByText("First name must be at least 2 characters")).toBeVisible();
  await expect(page.getByText("You must agree to the terms and conditions")).toBeVisible();
  await page.getByLabel("First name").fill(account.firstName);
  await page.getByLabel("Last name").fill(account.lastName);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Phone").fill("5551234567");
  await page.getByLabel("Street").fill("1 Analytical Way");
  await page.getByLabel("City").fill("London");
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Confirm password", { exact: true }).fill("different1");
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole("button", { name: "Create User Account" }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await page.getByLabel("Confirm password", { exact: true }).fill(account.password);
  await screenshot(page, "04-register");
  await page.getByRole("button", { name: "Create User Account" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(`Registration successful! Welcome to LoanMint, ${account.firstName}!`)).toBeVisible();

  // "Sign in as Admin" with a plain account is refused and keeps no session.
  await loginByForm(page, account, "Admin");
  await expect(page.getByTestId("login-error")).toHaveText("Access denied");
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem("auth-storage") ?? "{}").state?.token ?? null)).toBeNull();

  // A wrong password shows the server's message, not a session expiry.
  await loginByForm(page, { email: account.email, password: "wrongpass" });
  await expect(page.getByTestId("login-error")).toBeVisible();
  await expect(page.getByText("Session expired. Please login again.")).toHaveCount(0);

  await screenshot(page, "05-login");
  await loginByForm(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(`Welcome back, ${account.firstName}!`).first()).toBeVisible();
  await expect(page.getByTestId("greeting")).toContainText(account.firstName);
  await expect(page.getByTestId("kyc-banner")).toContainText("KYC Required");
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem("auth-storage")!).state.isAuthenticated)).toBe(true);
  await screenshot(page, "06-dashboard");

  // Profile: cancel restores, save persists on the server.
  await page.goto("/profile");
  await expect(page.getByTestId("kyc-badge")).toHaveText("Pending Verification");
  await expect(page.getByTestId("avatar-initials").first()).toHaveText("AL");
  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("First name").fill("Changed");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("profile-view")).toContainText(account.firstName);
  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("First name").fill("   ");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "First name and last name are required" })).toBeVisible();
  await page.getByLabel("First name").fill("Augusta");
  await page.getByLabel("Phone").fill("5559876543");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Profile updated successfully!")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("profile-view")).toContainText("Augusta");
  await expect(page.getByTestId("profile-view")).toContainText("5559876543");
  await expect(page.getByTestId("greeting")).toContainText("Augusta");

  // Picture upload replaces the initials.
  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByTestId("picture-input").setInputFiles(fileURLToPath(new URL("./fixtures/avatar.png", import.meta.url)));
  await expect(page.getByText("Profile picture updated successfully!")).toBeVisible();
  await expect(page.locator(".profile-id img[data-testid=avatar-img]")).toBeVisible();
  // Visible is not loaded: the picture's bytes arrive after the element, so wait until it has decoded.
  await expect.poll(() => page.locator(".profile-id img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Cancel" }).click();
  await screenshot(page, "07-profile");

  // Password change with the strength meter.
  await page.getByLabel("Current password", { exact: true }).fill(account.password);
  await page.getByLabel("New password", { exact: true }).fill("abc");
  await expect(page.getByTestId("strength")).toContainText("Weak");
  await page.getByLabel("New password", { exact: true }).fill("Stronger#2024");
  await expect(page.getByTestId("strength")).toContainText("Strong");
  await page.getByLabel("Confirm new password", { exact: true }).fill("Stronger#2025");
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await page.getByLabel("Confirm new password", { exact: true }).fill("Stronger#2024");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("Password changed successfully!")).toBeVisible();
  // The server ended older sessions; this tab carries on with the token it answered.
  await page.reload();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText(account.email).first()).toBeVisible();
  await expect(page.getByText("Session expired. Please login again.")).toHaveCount(0);

  // Notification preferences are kept locally.
  await page.getByRole("tab", { name: "Notifications" }).click();
  await page.getByRole("switch", { name: "SMS notifications" }).check();
  await page.getByRole("button", { name: "Save Preferences" }).click();
  await expect(page.getByText("Notification preferences updated")).toBeVisible();
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem("notification-preferences")!).smsNotifications)).toBe(true);

  // Servicing reminders are muted on the account itself, saved as the switch flips, and stay muted after a reload.
  const reminders = page.getByRole("switch", { name: "Servicing reminders" });
  await expect(reminders).toBeChecked();
  await reminders.uncheck();
  await expect(page.getByText("Servicing reminders muted")).toBeVisible();
  await page.reload();
  await page.getByRole("tab", { name: "Notifications" }).click();
  await expect(page.getByRole("switch", { name: "Servicing reminders" })).not.toBeChecked();

  // Sign out needs a confirmation.
  await page.getByRole("button", { name: "Sign Out" }).click();
  await page.getByRole("button", { name: "Cancel" }).last().click();
  await expect(page).toHaveURL(/\/profile$/);
  await page.getByRole("button", { name: "Sign Out" }).click();
  await page.getByRole("button", { name: "Yes, Sign Out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Successfully logged out!")).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("auth-storage"))).toBeNull();

  // The new password works, the old one does not.
  await loginByForm(page, account);
  await expect(page.getByTestId("login-error")).toBeVisible();
  await loginByForm(page, { email: account.email, password: "Stronger#2024" });
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("button", { name: "Logout" }).first().click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Logged out successfully")).toBeVisible();
});

test("an expired session is cleared and sends the user to /login", async ({ page }) => {
  const account = newAccount("expired");
  await registerByApi(page, account);
  await loginByForm(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The session store writes the whole session back to localStorage whenever the page reads the user again (on
  // open, on socket connect): spoiled from a running page, a late read can put the real token back. Spoil it before
  // the next page's scripts run instead.
  await page.addInitScript(() => {
    const stored = localStorage.getItem("auth-storage");
    if (!stored) return;
    const session = JSON.parse(stored);
    session.state.token = "not-a-valid-token";
    localStorage.setItem("auth-storage", JSON.stringify(session));
  });
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Session expired. Please login again.")).toBeVisible();
});
