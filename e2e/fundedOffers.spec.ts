import { test, expect, request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { createPublicClient, http, type Address } from "viem";
import { foundry } from "viem/chains";
import { testDollarAbi } from "#domain/abis";
import { screenshot } from "./helpers";
import { connect, DEMO, login, person, signIn, type Person } from "./investors";
import { E2E_BASE_URL, E2E_RPC_URL } from "./stack";

/**
 * An offer shown as placed can fill: an investor signs an offer without allowing the marketplace anything and is
 * told it is stored but not in the book, and why; one "Allow" puts it in the book. Buying another note then would
 * spend the allowance (a permit sets it to the price), so the review says the offer would turn unfunded, and "Keep
 * them funded" buys with an approve of the price plus the offer's most, leaving the offer open.
 */
let api: APIRequestContext;
let carol: Person;
let first = "",
  second = "",
  third = "";
let contracts: { stablecoin: Address; marketplace: Address };
const chain = () => createPublicClient({ chain: foundry, transport: http(E2E_RPC_URL) });
const allowance = () => chain().readContract({ address: contracts.stablecoin, abi: testDollarAbi, functionName: "allowance", args: [carol.address, contracts.marketplace] });
const openOffers = async (tokenId: string) =>
  ((await (await api.get(`/api/orders/note/${tokenId}`)).json()).data.offers as { signer: string }[]).filter((o) => o.signer.toLowerCase() === carol.address.toLowerCase()).length;

/** A $4,000 loan at 6.5% for 12 months, approved: its note is minted to the treasury, which lists it at 100% of par. */
async function approvedNote(borrowerToken: string, adminToken: string): Promise<string> {
  const requested = await api.post("/api/loans/request", { data: { amount: "4000", purpose: "education", interestRate: 6.5, termMonths: 12 }, headers: { authorization: `Bearer ${borrowerToken}` } });
  expect(requested.ok(), await requested.text()).toBeTruthy();
  const loan = (await requested.json()).data;
  const approved = await api.put(`/api/admin/loans/${loan._id}/approve`, { data: {}, headers: { authorization: `Bearer ${adminToken}` } });
  expect(approved.ok(), await approved.text()).toBeTruthy();
  return String(loan.loanNumber);
}

test.describe.serial("an offer shown as placed can fill", () => {
  test.beforeAll(async () => {
    api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
    const admin = await login(api, DEMO.admin.email, DEMO.admin.password);
    const borrower = await login(api, DEMO.borrower.email, DEMO.borrower.password);
    carol = await person(api, "carol-funded");
    contracts = (await (await api.get("/api/config")).json()).data.contracts;
    first = await approvedNote(borrower, admin);
    second = await approvedNote(borrower, admin);
    third = await approvedNote(borrower, admin);
  });

  test.afterAll(async () => {
    await api?.dispose();
  });

  test("an offer without allowance is said to be stored but not in the book, and one Allow puts it there", async ({ browser }) => {
    const page = await signIn(browser, carol);
    await page.goto(`/marketplace/nft/${first}`);
    await connect(page);
    const form = page.getByTestId("offer-form");
    await form.getByLabel("Percent of par").fill("97");
    await form.getByLabel("At most ($)").fill("4000");
    await form.getByRole("button", { name: "Review offer" }).click();
    await page.getByRole("button", { name: "Sign in wallet" }).click();

    const notInBook = page.getByTestId("order-not-in-book");
    await expect(notInBook).toContainText("Your offer is signed and stored, but it is not in the order book yet: The buyer has not approved the marketplace for the price", { timeout: 30_000 });
    await expect(page.getByText(/in the order book$/)).toHaveCount(0);
    await expect(page.getByTestId("book-offers-empty")).toBeVisible();
    expect(await openOffers(first)).toBe(0);
    await screenshot(page, "funded-01-not-in-book");

    await notInBook.getByRole("button", { name: "Allow $4,000.00: this offer (one transaction)" }).click();
    // The allowance is reviewed first: who may take how much, for what; nothing is approved before Confirm.
    await expect(notInBook.getByTestId("allow-review-spender")).toContainText(`${contracts.marketplace} take up to $4,000.00`);
    await expect(notInBook.getByTestId("allow-review-covers")).toHaveText("this offer");
    expect(await allowance()).toBe(0n);
    await notInBook.getByRole("button", { name: "Confirm allowance" }).click();
    await expect(page.getByText("The marketplace may take up to $4,000.00")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("order-in-book")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("book-offers")).toContainText("97% of par");
    expect(await openOffers(first)).toBe(1);
  });

  test("the portfolio shows the offer funded and what the open offers can take", async ({ browser }) => {
    const page = await signIn(browser, carol);
    await page.goto("/portfolio");
    await expect(page.getByTestId("offer-made").filter({ hasText: `Note #${first}` })).toContainText("Funded", { timeout: 30_000 });
    await expect(page.getByTestId("offers-section").getByTestId("funding-exposure")).toContainText("the marketplace may take $4,000.00 of it. Your 1 open offer can take up to $4,000.00.");
  });

  test("buying another note with Keep them funded leaves the offer open in the book", async ({ browser }) => {
    const page = await signIn(browser, carol);
    await page.goto(`/marketplace/nft/${second}`);
    await connect(page);
    await page.getByRole("button", { name: /^Buy for \$/ }).click();
    const review = page.getByTestId("review");
    await expect(review.getByTestId("review-offers-unfunded")).toContainText("your 1 open offer ($4,000.00) would become unfunded", { timeout: 30_000 });
    await review.getByLabel(/^Keep them funded/).check();
    await expect(review.getByTestId("review-offers-unfunded")).toContainText("stay funded");
    await review.getByRole("button", { name: /^Confirm and pay/ }).click();
    await expect(page.getByText(`Note #${second} is yours`)).toBeVisible({ timeout: 60_000 });
    await screenshot(page, "funded-02-kept");

    expect(await allowance()).toBe(4_000_000_000n);
    expect(await openOffers(first)).toBe(1);
    await page.goto(`/marketplace/nft/${first}`);
    await expect(page.getByTestId("book-offers")).toContainText("97% of par", { timeout: 30_000 });
  });

  test("a purchase that would leave the wallet short of its open offers says so in its review, before anything is sent", async ({ browser }) => {
    // Carol holds about $6,000 after one purchase; her offer may take $4,000; this note costs about $4,000.
    const page = await signIn(browser, carol);
    await page.goto(`/marketplace/nft/${third}`);
    await connect(page);
    await page.getByRole("button", { name: /^Buy for \$/ }).click();
    const review = page.getByTestId("review");
    await expect(review.getByTestId("review-offers-short")).toContainText("less than your 1 open offer may take ($4,000.00): it leaves the order book, unfunded", { timeout: 30_000 });
    await review.getByRole("button", { name: "Cancel" }).click();
    expect(await openOffers(first)).toBe(1);
  });
});
