import { expect, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";

/** Skips the once-per-tab splash: the splash has its own test. */
export async function skipSplash(page: Page) {
  await page.addInitScript(() => sessionStorage.setItem("splash-seen", "1"));
}

export function uniqueEmail(tag: string) {
  return `${tag}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}@e2e.loanmint.test`;
}

/** A screenshot of an access, shell or account screen, kept as a test artefact. */
export async function screenshot(page: Page, name: string) {
  mkdirSync("test-results/screens", { recursive: true });
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

export interface Account {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

export function newAccount(tag = "user"): Account {
  return { firstName: "Ada", lastName: "Lovelace", email: uniqueEmail(tag), password: "secret123" };
}

/** Registers through the API (faster than the form where the form is not what is tested). */
export async function registerByApi(page: Page, account: Account, extra: Record<string, unknown> = {}) {
  const res = await page.request.post("/api/auth/register", { data: { ...account, role: "user", ...extra } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

export async function loginByForm(page: Page, account: Pick<Account, "email" | "password">, as: "User" | "Admin" = "User") {
  await page.goto("/login");
  if (as === "Admin") await page.getByLabel("Admin", { exact: true }).check();
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: `Sign in as ${as}` }).click();
}

/** Holds every request to `url` until the answer is called: a slow server, at the moment the test chooses. */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * After an action, its news is one toast, clear of the page's title: polled for a few seconds, as notices of the
 * same event arrive after the action's own toast.
 */
export async function expectOneToastClearOfTitle(page: Page) {
  const title = (await page.getByRole("heading", { level: 1 }).first().boundingBox())!;
  const overlaps = (a: { x: number; y: number; width: number; height: number }) => a.x < title.x + title.width && title.x < a.x + a.width && a.y < title.y + title.height && title.y < a.y + a.height;
  const deadline = Date.now() + 4000;
  while (Date.now() < deadline) {
    // react-hot-toast keeps a dismissed toast a moment, faded out: only the ones shown count.
    const shown = await page.locator(".toast").evaluateAll((els) =>
      els
        .filter((el) => Number(getComputedStyle(el).opacity) > 0.5)
        .map((el) => {
          const r = el.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        }),
    );
    expect(shown.length, "one toast at a time").toBeLessThanOrEqual(1);
    for (const box of shown) expect(overlaps(box), "the toast leaves the title readable").toBe(false);
    await page.waitForTimeout(250);
  }
}
