import { test, expect, request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { createPublicClient, createWalletClient, http, type Abi, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { DAY_SECONDS, PERIOD_SECONDS } from "#domain/schedule";
import { screenshot } from "./helpers";
import { connect, DEMO, login, person, signIn, type Person } from "./investors";
import { E2E_BASE_URL, E2E_RPC_URL } from "./stack";

/**
 * A late note (days past due from the oldest unpaid installment's due date): a fresh borrower's $2,345 note at 7.25%
 * fits an investor's offer on any matching note; the chain moves past the first due date with nothing paid and the
 * note reads "Late" on its card and its page while the offer no longer fits it; the borrower pays what is past due
 * on the loan page and the note is current again, the offer back in its book.
 *
 * Isolation: the borrower and the investor are new, and the offer's ranges (7.25%+, $2,000–$2,400 outstanding, which
 * the note still is after its first installment) fit no other journey's note; after the journey the investor's
 * allowance is revoked, so the offer can fill nothing.
 * The time travel (about 35 days) is forward only, as collateral.spec's default already is: journeys that run later
 * make their own loans, which start at the chain's time then.
 */
let api: APIRequestContext;
let borrower: Person, investor: Person;
let loanId = "",
  tokenId = "";
let contracts: { loanNote: Address; stablecoin: Address; marketplace: Address };
const chain = () => createPublicClient({ chain: foundry, transport: http(E2E_RPC_URL) });

const notePage = (page: Page) => page.goto(`/marketplace/nft/${tokenId}`);

/** Reloads the page until `check` passes: the API and indexer catch up with the chain on their own time. */
async function untilShown(page: Page, check: () => Promise<void>) {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout: 60_000, intervals: [1_000, 2_000, 3_000] });
}

test.describe.serial("a note whose borrower is late", () => {
  test.beforeAll(async () => {
    api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
    const admin = await login(api, DEMO.admin.email, DEMO.admin.password);
    [borrower, investor] = [await person(api, "late-borrower"), await person(api, "late-investor")];
    contracts = (await (await api.get("/api/config")).json()).data.contracts;
    const requested = await api.post("/api/loans/request", {
      data: { amount: "2345", purpose: "education", interestRate: 7.25, termMonths: 12 },
      headers: { authorization: `Bearer ${borrower.token}` },
    });
    expect(requested.ok(), await requested.text()).toBeTruthy();
    const loan = (await requested.json()).data;
    const approved = await api.put(`/api/admin/loans/${loan._id}/approve`, { data: {}, headers: { authorization: `Bearer ${admin}` } });
    expect(approved.ok(), await approved.text()).toBeTruthy();
    loanId = String(loan._id);
    tokenId = String(loan.loanNumber);
  });

  test.afterAll(async () => {
    // The investor's offer stays signed until it expires: without an allowance it can fill no later journey's note.
    if (investor && contracts) {
      const wallet = createWalletClient({ account: privateKeyToAccount(investor.key), chain: foundry, transport: http(E2E_RPC_URL) });
      const hash = await wallet.writeContract({ address: contracts.stablecoin, abi: testDollarAbi as Abi, functionName: "approve", args: [contracts.marketplace, 0n] });
      await chain().waitForTransactionReceipt({ hash });
    }
    await api?.dispose();
  });

  test("an investor's offer on any matching note fits the current note and shows on its page", async ({ browser }) => {
    const page = await signIn(browser, investor);
    await page.goto("/marketplace");
    await page.getByTestId("matching-offer-toggle").click();
    const form = page.getByTestId("matching-offer-form");
    await connect(page);
    await form.getByLabel("Rate at least (%)").fill("7.25");
    await form.getByLabel("At most months left").fill("13");
    await form.getByLabel("Outstanding from ($, optional)").fill("2000");
    await form.getByLabel("Outstanding up to ($, optional)").fill("2400");
    await form.getByLabel("Percent of par").fill("97");
    await form.getByLabel("Budget ($)").fill("3000");
    // Valid long enough to outlive the time travel: a 30-day offer would expire before the cure.
    await form.getByLabel("Valid for").selectOption("90");
    await form.getByTestId("funding-allow").click();
    await form.getByRole("button", { name: "Confirm allowance" }).click();
    await expect(page.getByText("The marketplace may take up to $3,000.00")).toBeVisible({ timeout: 30_000 });
    await form.getByRole("button", { name: "Review offer" }).click();
    await expect(page.getByTestId("sign-words")).toContainText("only while no installment is past due");
    await page.getByRole("button", { name: "Sign in wallet" }).click();
    await expect(page.getByText("Offer on any matching note signed")).toBeVisible({ timeout: 30_000 });

    const book = await (await api.get(`/api/orders/note/${tokenId}`)).json();
    expect(book.data.matchingOffers.map((o: { signer: string }) => o.signer.toLowerCase())).toEqual([investor.address.toLowerCase()]);

    await notePage(page);
    await expect(page.getByTestId("note-servicing")).toHaveAttribute("data-servicing", "current", { timeout: 20_000 });
    await expect(page.getByTestId("note-servicing")).toContainText("Current");
    await expect(page.getByTestId("best-offer")).toContainText("(97% of par)");
    await expect(page.getByTestId("order-book")).toContainText("Any note");
    await page.context().close();
  });

  test("past the first due date with nothing paid the note reads Late and the offer no longer fits it", async ({ browser }) => {
    // The chain moves 5 days past the first installment's due date (one period after the loan's start).
    const client = chain();
    const terms = (await client.readContract({ address: contracts.loanNote, abi: loanNoteAbi as Abi, functionName: "loanOf", args: [BigInt(tokenId)] })) as { start: bigint | number };
    const target = BigInt(terms.start) + PERIOD_SECONDS + 5n * DAY_SECONDS + 60n;
    const now = (await client.getBlock()).timestamp;
    expect(now, "the chain is not yet past the first due date").toBeLessThan(target - 5n * DAY_SECONDS);
    await client.request({ method: "evm_increaseTime" as never, params: [Number(target - now)] as never });
    await client.request({ method: "evm_mine" as never, params: [] as never });

    const page = await signIn(browser, investor);
    await page.goto("/marketplace");
    await page.getByLabel("Search").fill(`#${tokenId}`);
    const card = page.getByTestId("note-card").filter({ has: page.locator(`[id="note-${tokenId}"]`) });
    await untilShown(page, async () => {
      await page.getByLabel("Search").fill(`#${tokenId}`);
      await expect(card.getByTestId("card-servicing")).toHaveAttribute("data-servicing", "late", { timeout: 5_000 });
    });
    await expect(card.getByTestId("card-servicing")).toContainText(/Late \(\d+ days? past due\)/);

    await notePage(page);
    const badge = page.getByTestId("note-servicing");
    await expect(badge).toHaveAttribute("data-servicing", "late", { timeout: 20_000 });
    await expect(badge).toContainText(/Late \(\d+ days? past due\)/);
    await expect(badge.getByTestId("note-servicing-past-due")).toContainText("past due");
    await expect(page.getByTestId("book-late")).toBeVisible();
    await expect(page.getByTestId("best-offer")).toHaveCount(0);
    const book = await (await api.get(`/api/orders/note/${tokenId}`)).json();
    expect(book.data.matchingOffers).toEqual([]);
    expect(book.data.bestOffer).toBeNull();
    await screenshot(page, "late-01-note-late");

    // On a phone the badge is still in sight in the price card.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId("price-servicing")).toBeVisible();
    await expect(page.getByTestId("price-servicing")).toContainText("Late");
    await page.context().close();
  });

  test("the borrower pays what is past due on the loan page and the note is current again, the offer back", async ({ browser }) => {
    const page = await signIn(browser, borrower);
    await page.goto(`/loans/${loanId}`);
    await expect(page.getByTestId("loan-details")).toHaveAttribute("data-status", "active", { timeout: 20_000 });
    await expect(page.getByTestId("loan-past-due")).toContainText(/Late \(\d+ days? past due\): \$[\d,.]+ is past due since/, { timeout: 20_000 });
    await expect(page.getByTestId("loan-past-due")).toContainText("Paying it makes the loan current again.");
    const panel = page.getByTestId("repay-panel");
    const paying = panel.getByText("Paying from");
    const connectButton = panel.getByRole("button", { name: "Connect Wallet" });
    await expect(paying.or(connectButton)).toBeVisible({ timeout: 30_000 });
    if (await connectButton.isVisible()) {
      await connectButton.click();
      await page.getByTestId("rk-wallet-option-injected").click();
      await expect(paying).toBeVisible();
    }
    // Behind schedule the step offered is what is past due: within the late-fee grace period, no fee yet.
    await page.getByTestId("repay-past-due").click();
    const review = page.getByTestId("review");
    await expect(review.getByTestId("review-late-fees")).toContainText("$0.00");
    const amount = (await review.getByTestId("review-amount").textContent())!.trim();
    await review.getByRole("button", { name: `Confirm and pay ${amount}` }).click();
    await expect(page.getByText("Everything past due is paid: the loan is current")).toBeVisible({ timeout: 30_000 });
    await untilShown(page, () => expect(page.getByTestId("loan-past-due")).toHaveCount(0, { timeout: 5_000 }));
    await page.context().close();

    const viewer = await signIn(browser, investor);
    await notePage(viewer);
    await untilShown(viewer, () => expect(viewer.getByTestId("note-servicing")).toHaveAttribute("data-servicing", "current", { timeout: 5_000 }));
    await expect(viewer.getByTestId("note-servicing")).toContainText("Current");
    await expect(viewer.getByTestId("book-late")).toHaveCount(0);
    await expect(viewer.getByTestId("best-offer")).toContainText("(97% of par)", { timeout: 20_000 });
    const book = await (await api.get(`/api/orders/note/${tokenId}`)).json();
    expect(book.data.matchingOffers.map((o: { signer: string }) => o.signer.toLowerCase())).toEqual([investor.address.toLowerCase()]);
    await screenshot(viewer, "late-02-note-current");
    await viewer.context().close();
  });
});
