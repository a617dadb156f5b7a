import { expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Address, Hex } from "viem";
import { installTestWallet } from "./testWallet";
import { newAccount, skipSplash, type Account } from "./helpers";
import { query } from "./db";

/** The demo accounts `npm start` seeds (scripts/seed.ts). */
export const DEMO = {
  admin: { email: "admin@loanmint.local", password: "Admin123!" },
  borrower: { email: "borrower@loanmint.local", password: "Borrower123!" },
};

/** A user of the journeys: their account, their wallet's key and address, and an API token. */
export interface Person extends Account {
  key: Hex;
  address: Address;
  token: string;
}

export async function login(api: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await api.post("/api/auth/login", { data: { email, password } });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()).data.token;
}

/** A user with approved KYC and a verified wallet (their own flows are tested by the account journeys). */
export async function person(api: APIRequestContext, tag: string): Promise<Person> {
  const account = newAccount(tag);
  const res = await api.post("/api/auth/register", { data: { ...account, role: "user" } });
  expect(res.ok(), await res.text()).toBeTruthy();
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  await query("update users set kyc_status = 'approved', wallet_address = $1 where email = $2", [address.toLowerCase(), account.email]);
  const faucet = await api.post("/api/dev/faucet", { data: { address } });
  expect(faucet.ok(), await faucet.text()).toBeTruthy();
  return { ...account, key, address, token: await login(api, account.email, account.password) };
}

/** A browser of its own for `who`, signed in, with their key as the injected wallet. */
export async function signIn(browser: Browser, who: Person, wallet: Parameters<typeof installTestWallet>[2] = {}): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await skipSplash(page);
  await installTestWallet(page, who.key, wallet);
  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Sign in as User" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

/**
 * Connects a wallet unless wagmi already reconnected it: the injected test wallet, or ("loanmint-dev") the app's local
 * dev wallet, which follows the demo user's verified wallet.
 */
export async function connect(page: Page, wallet: "injected" | "loanmint-dev" = "injected") {
  const signing = page.getByTestId("wallet-bar").filter({ hasText: "Signing as" }).first();
  const button = page.getByRole("button", { name: "Connect Wallet" }).first();
  // The wallet stack is a large chunk: on a loaded machine it can take longer than the default wait.
  await expect(signing.or(button)).toBeVisible({ timeout: 30_000 });
  if (await signing.isVisible()) return;
  await button.click();
  // wagmi may finish reconnecting while the modal opens; the modal then goes away and there is nothing to pick
  // (the fresh-clone CI spent its whole minute retrying a detached wallet option).
  const option = page.getByTestId(`rk-wallet-option-${wallet}`);
  await expect(signing.or(option)).toBeVisible();
  if (!(await signing.isVisible())) {
    await option.click({ timeout: 10_000 }).catch(async (error: unknown) => {
      if (!(await signing.isVisible())) throw error;
    });
  }
  await expect(signing).toBeVisible();
}
