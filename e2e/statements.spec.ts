import { test, expect, request as playwrightRequest, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { createPublicClient, createWalletClient, http, maxUint256, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { displayUsd, parseUsd } from "#domain/money";
import { monthlyPayment } from "#domain/schedule";
import { screenshot, skipSplash } from "./helpers";
import { connect, DEMO, login as loginAs, person as newPerson, signIn, type Person } from "./investors";
import { PHONE, expectPhoneReady, phoneScreenshot } from "./phone";
import { installTestWallet } from "./testWallet";
import { E2E_BASE_URL, E2E_RPC_URL } from "./stack";

/**
 * The statements against the figures they restate: an investor buys a note, the borrower pays one installment, and
 * the investor's statement (page and CSV) and the borrower's loan statement agree with each other, with the
 * portfolio page and with the payment made. Both statements fit a phone.
 */
let api: APIRequestContext;
let borrower: Person, investor: Person;
let tokenId = "";
let loanId = "";
let contracts: { loanNote: Address; stablecoin: Address };
const PRINCIPAL = 4_000_000_000n;
const RATE_BPS = 650;
const TERM = 12;
const installment = monthlyPayment(PRINCIPAL, RATE_BPS, TERM);

/**
 * A UTC day counted from the chain's clock, which the statement's block times follow: other journeys move the local
 * chain forward in time, so its "today" can be weeks ahead of the wall clock's.
 */
let chainToday = Date.now();
const utcDay = (offsetDays = 0) => new Date(chainToday + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** RFC 4180 rows: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r") continue;
    else if (c === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += c;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** The CSV's "Total, Amount" section as a map from label to the exact wire amount. */
function csvTotals(rows: string[][]): Map<string, string> {
  const start = rows.findIndex((r) => r[0] === "Total" && r[1] === "Amount");
  expect(start, "the CSV has a totals section").toBeGreaterThanOrEqual(0);
  const totals = new Map<string, string>();
  for (const r of rows.slice(start + 1)) {
    if (r.length < 2) break;
    totals.set(r[0], r[1]);
  }
  return totals;
}

/** The rows of the CSV section whose header row starts with `first`, the header left out. */
function csvSection(rows: string[][], first: string): string[][] {
  const start = rows.findIndex((r) => r[0] === first);
  expect(start, `the CSV has a "${first}" section`).toBeGreaterThanOrEqual(0);
  const body: string[][] = [];
  for (const r of rows.slice(start + 1)) {
    if (r.length < 2) break;
    body.push(r);
  }
  return body;
}

async function downloadedCsv(page: Page): Promise<{ name: string; rows: string[][] }> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), rows: parseCsv(readFileSync(path, "utf8")) };
}

/** A phone-sized browser for `who`, signed in through the form. */
async function phoneSignIn(browser: Browser, who: Person): Promise<Page> {
  const page = await (await browser.newContext({ ...PHONE })).newPage();
  await skipSplash(page);
  await installTestWallet(page, who.key);
  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Sign in as User" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

/** Every button and link of the page's main content lies inside the screen's width (reached by scrolling down only). */
async function expectControlsInside(page: Page) {
  const outside = await page.locator("main button:visible, main a.btn:visible, main input:visible").evaluateAll((els) =>
    els
      .map((el) => ({ box: el.getBoundingClientRect(), text: (el.textContent || el.getAttribute("aria-label") || el.id || el.tagName).trim() }))
      .filter(({ box }) => box.left < -0.5 || box.right > window.innerWidth + 0.5)
      .map(({ box, text }) => `"${text}" spans ${Math.round(box.left)}–${Math.round(box.right)} px`),
  );
  expect(outside, `controls outside the screen on ${page.url()}: ${outside.join("; ")}`).toEqual([]);
}

async function settle(page: Page) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
}

test.describe.serial("statements restate the portfolio and the loan", () => {
  test.beforeAll(async () => {
    api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
    const admin = await loginAs(api, DEMO.admin.email, DEMO.admin.password);
    borrower = {
      ...DEMO.borrower,
      firstName: "Bob",
      lastName: "Borrower",
      key: DEV_ACCOUNTS.demoBorrower,
      address: privateKeyToAccount(DEV_ACCOUNTS.demoBorrower).address,
      token: await loginAs(api, DEMO.borrower.email, DEMO.borrower.password),
    };
    investor = await newPerson(api, "statement");
    contracts = (await (await api.get("/api/config")).json()).data.contracts;
    const requested = await api.post("/api/loans/request", {
      data: { amount: "4000", purpose: "education", interestRate: RATE_BPS / 100, termMonths: TERM },
      headers: { authorization: `Bearer ${borrower.token}` },
    });
    expect(requested.ok(), await requested.text()).toBeTruthy();
    const loan = (await requested.json()).data;
    const approved = await api.put(`/api/admin/loans/${loan._id}/approve`, { data: {}, headers: { authorization: `Bearer ${admin}` } });
    expect(approved.ok(), await approved.text()).toBeTruthy();
    tokenId = String(loan.loanNumber);
    loanId = String(loan._id);
  });

  test.afterAll(async () => api?.dispose());

  test("the investor buys the note and the borrower pays one installment", async ({ browser }) => {
    const page = await signIn(browser, investor);
    await page.goto(`/marketplace/nft/${tokenId}`);
    await expect(page.getByTestId("listing-price")).toBeVisible();
    await connect(page);
    await page.getByRole("button", { name: /^Buy for / }).click();
    await page.getByRole("button", { name: /^Confirm and pay / }).click();
    await expect(page.getByText(`Note #${tokenId} is yours`)).toBeVisible({ timeout: 30_000 });
    await page.context().close();

    const chain = createPublicClient({ chain: foundry, transport: http(E2E_RPC_URL) });
    const wallet = createWalletClient({ account: privateKeyToAccount(borrower.key), chain: foundry, transport: http(E2E_RPC_URL) });
    await chain.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: contracts.stablecoin, abi: testDollarAbi, functionName: "approve", args: [contracts.loanNote, maxUint256] }) });
    await chain.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: contracts.loanNote, abi: loanNoteAbi, functionName: "repay", args: [BigInt(tokenId), installment] }) });
    chainToday = Number((await chain.getBlock()).timestamp) * 1000;
  });

  test("the investor statement's page and CSV agree with each other and with the portfolio", async ({ browser }) => {
    const page = await signIn(browser, investor);
    await page.goto("/portfolio");
    await expect(page.getByTestId("held-note")).toHaveCount(1);
    // The repayment reaches the portfolio once the mirror has read it.
    await expect(page.getByTestId("credits-available")).toHaveText(displayUsd(installment), { timeout: 30_000 });
    const totalRepaid = (await page.getByTestId("tile-total-repaid").locator(".stat__value").textContent())!.trim();
    const totalValue = (await page.getByTestId("tile-total-value").locator(".stat__value").textContent())!.trim();
    expect(totalRepaid).toBe(displayUsd(installment));

    await page.getByTestId("statement-link").click();
    await expect(page).toHaveURL(/\/portfolio\/statement$/);
    // A period that starts a month before the purchase and ends today.
    await page.getByLabel("From", { exact: true }).fill(utcDay(-30));
    await page.getByLabel("To", { exact: true }).fill(utcDay());
    await page.getByRole("button", { name: "Show" }).click();
    const totals = page.getByTestId("statement-totals");
    await expect(totals).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByTestId("statement-trades").getByRole("row")).toHaveCount(2);
    await expect(page.getByTestId("statement-receipts").getByRole("row")).toHaveCount(2);

    const { name, rows } = await downloadedCsv(page);
    expect(name).toBe(`statement-${utcDay(-30)}-${utcDay()}.csv`);
    expect(rows[1]).toEqual(["From", utcDay(-30)]);
    const csv = csvTotals(rows);
    const received = csv.get("Repayments received")!;
    const outstanding = csv.get("Outstanding principal")!;
    // The CSV carries the chain's exact amounts; the repayment is the installment paid, to the unit.
    expect(parseUsd(received)).toBe(installment);
    expect(csv.get("Notes held")).toBe("1");
    expect(csvSection(rows, "Repayment time").map((r) => r[1])).toEqual([tokenId]);
    expect(csvSection(rows, "Trade time").map((r) => [r[1], r[2]])).toEqual([["buy", tokenId]]);
    // The page shows the same figures…
    await expect(page.getByTestId("total-received")).toHaveText(displayUsd(parseUsd(received)));
    await expect(page.getByTestId("total-outstanding")).toHaveText(displayUsd(parseUsd(outstanding)));
    await expect(page.getByTestId("total-notes-held")).toHaveText("1");
    await expect(page.getByTestId("statement-notes").getByRole("row").nth(1)).toContainText("Held");
    // …and so does the portfolio, in cents: its Total Repaid is every repayment credited, its Total Value the
    // outstanding principal of the notes held.
    expect(displayUsd(parseUsd(received))).toBe(totalRepaid);
    expect(displayUsd(parseUsd(outstanding))).toBe(totalValue);
    await settle(page);
    await screenshot(page, "statements-01-portfolio");
  });

  test("the borrower's loan statement lists the installment paid", async ({ browser }) => {
    const page = await signIn(browser, borrower);
    await page.goto(`/loans/${loanId}`);
    await expect(page.getByTestId("loan-repaid")).toHaveText(displayUsd(installment), { timeout: 30_000 });
    await page.getByTestId("statement-link").click();
    await expect(page).toHaveURL(new RegExp(`/loans/${loanId}/statement$`));
    const payments = page.getByTestId("statement-payments");
    await expect(payments.getByRole("row")).toHaveCount(2);
    await expect(payments.getByRole("row").nth(1).getByRole("cell").nth(1)).toHaveText(displayUsd(installment));
    await expect(page.getByTestId("total-paid")).toHaveText(displayUsd(installment));

    const { rows } = await downloadedCsv(page);
    const paid = csvSection(rows, "Payment time");
    expect(paid).toHaveLength(1);
    expect(parseUsd(paid[0][2])).toBe(installment);
    // No late fee on a payment made on time; interest and principal split it exactly.
    expect(parseUsd(paid[0][3])).toBe(0n);
    expect(parseUsd(paid[0][4]) + parseUsd(paid[0][5])).toBe(installment);
    expect(parseUsd(csvTotals(rows).get("Paid")!)).toBe(installment);
    await settle(page);
    await screenshot(page, "statements-02-loan");
  });

  test("on a phone both statements fit the screen with every control inside it", async ({ browser }) => {
    for (const [who, path, ready, name] of [
      [investor, "/portfolio/statement", "statement-totals", "statements-03-phone-portfolio"],
      [borrower, `/loans/${loanId}/statement`, "statement-payments", "statements-04-phone-loan"],
    ] as const) {
      const page = await phoneSignIn(browser, who);
      await page.goto(path);
      await expect(page.getByTestId(ready)).toBeVisible();
      await settle(page);
      await expectPhoneReady(page);
      await expectControlsInside(page);
      // The totals read two a row, not one long column ahead of the tables.
      const [first, second] = await page.locator(".statement-totals > div").evaluateAll((els) => els.slice(0, 2).map((el) => el.getBoundingClientRect().top));
      expect(second).toBe(first);
      await phoneScreenshot(page, name);
      await screenshot(page, `${name}-full`);
      await page.context().close();
    }
  });
});
