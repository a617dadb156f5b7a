import { test, expect, request as playwrightRequest, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { createPublicClient, http, type Abi, type Address } from "viem";
import { foundry } from "viem/chains";
import { loanNoteAbi } from "#domain/abis";
import { displayUsd } from "#domain/money";
import { DAY_SECONDS, PERIOD_SECONDS } from "#domain/schedule";
import { screenshot, skipSplash } from "./helpers";
import { DEMO, login, person, type Person } from "./investors";
import { expectFitsScreen, PHONE } from "./phone";
import { E2E_BASE_URL, E2E_RPC_URL } from "./stack";
import { installTestWallet } from "./testWallet";

/**
 * Late fees from the borrower's side: two fresh borrowers each miss two installments, long enough for both late fees
 * to apply; each reads on the loan page what is past due with its fees, reviews it in one step (installments, late
 * fees and the total as the loan note computes them), pays it with one permit and one transaction, and sees the loan
 * current again. One pays on a desktop screen (1280 px), the other on a phone (390 px).
 *
 * The time travel (about 76 days) is forward only, as lateNote.spec's is: journeys that run later make their own
 * loans, which start at the chain's time then.
 */
let api: APIRequestContext;
const borrowers: Record<"desk" | "phone", { who: Person; loanId: string; tokenId: bigint }> = {} as never;
let loanNote: Address;
const chain = () => createPublicClient({ chain: foundry, transport: http(E2E_RPC_URL) });
const read = <T>(functionName: string, tokenId: bigint) => chain().readContract({ address: loanNote, abi: loanNoteAbi as Abi, functionName, args: [tokenId] }) as Promise<T>;

/** A browser of its own at `viewport` for `who`, signed in, with their key as the injected wallet. */
async function signInAt(browser: Browser, who: Person, viewport: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext(viewport.width === PHONE.viewport.width ? { ...PHONE } : { viewport })).newPage();
  await skipSplash(page);
  await installTestWallet(page, who.key);
  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Sign in as User" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

/** The borrower's whole journey on their loan page: what is past due with its fees, one reviewed payment, current again. */
async function payWhatIsPastDue(page: Page, key: "desk" | "phone") {
  const { loanId, tokenId } = borrowers[key];
  await page.goto(`/loans/${loanId}`);
  const pastDue = page.getByTestId("loan-past-due");
  await expect(pastDue).toContainText(/Delinquent \(\d+ days\): \$[\d,.]+ is past due since .+, late fees of \$[\d,.]+ included\. Paying it makes the loan current again\./, { timeout: 20_000 });
  const [[fees, count], due] = await Promise.all([read<[bigint, bigint]>("lateFeesOf", tokenId), read<bigint>("amountDueNow", tokenId)]);
  expect(count).toBe(2n);
  await expect(pastDue).toContainText(`${displayUsd(due)} is past due`);
  await expect(pastDue).toContainText(`late fees of ${displayUsd(fees)} included`);

  const panel = page.getByTestId("repay-panel");
  const paying = panel.getByText("Paying from");
  const connectButton = panel.getByRole("button", { name: "Connect Wallet" });
  await expect(paying.or(connectButton)).toBeVisible({ timeout: 30_000 });
  if (await connectButton.isVisible()) {
    await connectButton.click();
    await page.getByTestId("rk-wallet-option-injected").click();
    await expect(paying).toBeVisible();
  }
  await expect(panel.getByTestId("repay-installment")).toHaveCount(0);
  await panel.getByTestId("repay-past-due").click();
  const review = page.getByTestId("review");
  await expect(review.getByTestId("review-installments")).toContainText(displayUsd(due - fees));
  await expect(review).toContainText("Late fees (2 installments)");
  await expect(review.getByTestId("review-late-fees")).toContainText(displayUsd(fees));
  await expect(review.getByTestId("review-amount")).toContainText(displayUsd(due));
  if (key === "phone") await expectFitsScreen(page);
  await screenshot(page, `late-fees-01-review-${key}`);
  await review.getByRole("button", { name: `Confirm and pay ${displayUsd(due)}` }).click();
  await expect(page.getByText("Everything past due is paid: the loan is current")).toBeVisible({ timeout: 30_000 });

  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("loan-past-due")).toHaveCount(0, { timeout: 5_000 });
    await expect(page.getByTestId("loan-servicing")).toHaveAttribute("data-servicing", "current", { timeout: 5_000 });
  }).toPass({ timeout: 60_000, intervals: [1_000, 2_000, 3_000] });
  const [[feesAfter], dueAfter] = await Promise.all([read<[bigint, bigint]>("lateFeesOf", tokenId), read<bigint>("amountDueNow", tokenId)]);
  expect([feesAfter, dueAfter]).toEqual([0n, 0n]);
  await expect(page.getByTestId("repay-installment")).toBeVisible();
  if (key === "phone") await expectFitsScreen(page);
  await screenshot(page, `late-fees-02-current-${key}`);
}

test.describe.serial("a borrower two installments behind pays what is past due, late fees included", () => {
  test.beforeAll(async () => {
    api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
    const admin = await login(api, DEMO.admin.email, DEMO.admin.password);
    loanNote = (await (await api.get("/api/config")).json()).data.contracts.loanNote;
    for (const key of ["desk", "phone"] as const) {
      const who = await person(api, `late-fee-${key}`);
      const requested = await api.post("/api/loans/request", { data: { amount: "1200", purpose: "education", interestRate: 9, termMonths: 12 }, headers: { authorization: `Bearer ${who.token}` } });
      expect(requested.ok(), await requested.text()).toBeTruthy();
      const loan = (await requested.json()).data;
      const approved = await api.put(`/api/admin/loans/${loan._id}/approve`, { data: {}, headers: { authorization: `Bearer ${admin}` } });
      expect(approved.ok(), await approved.text()).toBeTruthy();
      borrowers[key] = { who, loanId: String(loan._id), tokenId: BigInt(loan.loanNumber) };
    }
    // Past the second installment's late-fee time (due date + the 15-day grace) for both loans, with nothing paid.
    const client = chain();
    const starts = await Promise.all(Object.values(borrowers).map(async ({ tokenId }) => BigInt(((await read<{ start: bigint | number }>("loanOf", tokenId)) as { start: bigint | number }).start)));
    const latest = starts.reduce((a, b) => (a > b ? a : b));
    const lateFeeGrace = BigInt((await client.readContract({ address: loanNote, abi: loanNoteAbi as Abi, functionName: "lateFeeGracePeriod" })) as bigint | number);
    const target = latest + 2n * PERIOD_SECONDS + lateFeeGrace + DAY_SECONDS;
    const now = (await client.getBlock()).timestamp;
    await client.request({ method: "evm_increaseTime" as never, params: [Number(target - now)] as never });
    await client.request({ method: "evm_mine" as never, params: [] as never });
  });

  test.afterAll(async () => {
    await api?.dispose();
  });

  test("on a desktop screen (1280 px)", async ({ browser }) => {
    const page = await signInAt(browser, borrowers.desk.who, { width: 1280, height: 800 });
    await payWhatIsPastDue(page, "desk");
    await page.context().close();
  });

  test("on a phone (390 px)", async ({ browser }) => {
    const page = await signInAt(browser, borrowers.phone.who, PHONE.viewport);
    await payWhatIsPastDue(page, "phone");
    await page.context().close();
  });
});
