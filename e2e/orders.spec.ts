import { test, expect, request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { createPublicClient, createWalletClient, http, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { loanNoteAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { screenshot } from "./helpers";
import { connect, DEMO, login, person, signIn, type Person } from "./investors";
import { E2E_BASE_URL, E2E_RPC_URL } from "./stack";

/**
 * Signed orders in the browser: investor A lists a note at 99% of par by a signature, investor B offers
 * 97% of par on it and A accepts; B then offers on any matching note from the marketplace and A, holding another
 * matching note, accepts that one too. Every wallet step first says in words what is signed. Par is the dirty price:
 * both $4,000 notes at 6.5% are on day 1 of their first period, so par carries $0.722222 of interest accrued.
 */
let api: APIRequestContext;
let alice: Person, bob: Person;
let first = "",
  second = "";
let contracts: { loanNote: Address; stablecoin: Address; marketplace: Address };
const chain = () => createPublicClient({ chain: foundry, transport: http(E2E_RPC_URL) });
const ownerOf = async (tokenId: string) => ((await chain().readContract({ address: contracts.loanNote, abi: loanNoteAbi, functionName: "ownerOf", args: [BigInt(tokenId)] })) as string).toLowerCase();

/** A $4,000 loan at 6.5% for 12 months, approved: its note is minted to the treasury. */
async function approvedNote(borrowerToken: string, adminToken: string): Promise<string> {
  const requested = await api.post("/api/loans/request", { data: { amount: "4000", purpose: "education", interestRate: 6.5, termMonths: 12 }, headers: { authorization: `Bearer ${borrowerToken}` } });
  expect(requested.ok(), await requested.text()).toBeTruthy();
  const loan = (await requested.json()).data;
  const approved = await api.put(`/api/admin/loans/${loan._id}/approve`, { data: {}, headers: { authorization: `Bearer ${adminToken}` } });
  expect(approved.ok(), await approved.text()).toBeTruthy();
  return String(loan.loanNumber);
}

test.describe.serial("two investors trade notes by signed orders", () => {
  test.beforeAll(async () => {
    api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
    const admin = await login(api, DEMO.admin.email, DEMO.admin.password);
    const borrower = await login(api, DEMO.borrower.email, DEMO.borrower.password);
    [alice, bob] = [await person(api, "alice-orders"), await person(api, "bob-orders")];
    contracts = (await (await api.get("/api/config")).json()).data.contracts;
    first = await approvedNote(borrower, admin);
    second = await approvedNote(borrower, admin);
    // A holds both notes: the treasury hands them over (buying them is the investor journey's own test).
    const treasury = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.treasury), chain: foundry, transport: http(E2E_RPC_URL) });
    for (const id of [first, second]) {
      const hash = await treasury.writeContract({ address: contracts.loanNote, abi: loanNoteAbi, functionName: "transferFrom", args: [treasury.account.address, alice.address, BigInt(id)] });
      await chain().waitForTransactionReceipt({ hash });
    }
  });

  test.afterAll(async () => {
    await api?.dispose();
  });

  test("A lists a note at 99% of par by a signature that costs no gas", async ({ browser }) => {
    const page = await signIn(browser, alice);
    await page.goto("/portfolio");
    await connect(page);
    const form = page.getByTestId(`list-form-${first}`);
    await expect(form).toBeVisible({ timeout: 30_000 });
    await form.getByLabel("Percent of par").fill("99");
    await expect(page.getByTestId(`list-today-${first}`)).toContainText("Today 99% of par is $3,960.722222: 99% of $4,000.00 principal + $0.722222 interest accrued and unpaid");
    await form.getByRole("button", { name: "Review listing" }).click();
    await expect(page.getByTestId("sign-words")).toContainText(
      `You sign a listing: note #${first} at 99% of par (today 99% of par is $3,960.722222: 99% of $4,000.00 principal + $0.722222 interest accrued and unpaid), only while no installment is past due, valid until`,
    );
    await expect(page.getByTestId("sign-words")).toContainText("it costs no gas");
    await page.getByRole("button", { name: "Sign in wallet" }).click();
    await expect(page.getByText(`Note #${first} listed`)).toBeVisible({ timeout: 30_000 });
    await screenshot(page, "orders-01-listed");
  });

  test("B sees the listing in the note's order book and offers 97% of par, capped in dollars", async ({ browser }) => {
    const page = await signIn(browser, bob);
    await page.goto(`/marketplace/nft/${first}`);
    await expect(page.getByTestId("listing-price")).toHaveText("$3,960.72");
    await expect(page.getByTestId("book-listings")).toContainText("99% of par");
    await connect(page);
    const form = page.getByTestId("offer-form");
    await form.getByLabel("Percent of par").fill("97");
    await form.getByLabel("At most ($)").fill("4000");
    await expect(form.getByTestId("offer-today")).toContainText("Today 97% of par is $3,880.722222: 97% of $4,000.00 principal + $0.722222 interest accrued and unpaid; you pay at most $4,000.00");
    // Paid by allowance when A accepts: B allows it once (the only gas an offer costs).
    await form.getByTestId("funding-allow").click();
    await form.getByRole("button", { name: "Confirm allowance" }).click();
    await expect(page.getByText("The marketplace may take up to $4,000.00")).toBeVisible({ timeout: 30_000 });
    await form.getByRole("button", { name: "Review offer" }).click();
    await expect(page.getByTestId("sign-words")).toContainText(
      `You sign an offer: to buy note #${first} at 97% of par (today 97% of par is $3,880.722222: 97% of $4,000.00 principal + $0.722222 interest accrued and unpaid), paying at most $4,000.00, only while no installment is past due`,
    );
    await page.getByRole("button", { name: "Sign in wallet" }).click();
    await expect(page.getByText(`Offer on note #${first} signed`)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("book-offers")).toContainText("$3,880.72");
  });

  test("A accepts B's offer from the portfolio: one transaction, and the note is B's", async ({ browser }) => {
    const page = await signIn(browser, alice);
    await page.goto("/portfolio");
    await connect(page);
    const offer = page.getByTestId("offer-received").filter({ hasText: `note #${first}` });
    await expect(offer).toContainText("$3,880.72");
    await offer.getByRole("button", { name: "Accept $3,880.72" }).click();
    await expect(offer.getByTestId("accept-price")).toHaveText("$3,880.72");
    await offer.getByRole("button", { name: "Sell for $3,880.72" }).click();
    await expect(page.getByText(`Note #${first} sold for $3,880.72`)).toBeVisible({ timeout: 30_000 });
    expect(await ownerOf(first)).toBe(bob.address.toLowerCase());
    await screenshot(page, "orders-02-accepted");
  });

  test("B offers on any note at 6%+ with at most 13 months left; A, holding one, accepts", async ({ browser }) => {
    const buyer = await signIn(browser, bob);
    await buyer.goto("/marketplace");
    await buyer.getByTestId("matching-offer-toggle").click();
    const form = buyer.getByTestId("matching-offer-form");
    await connect(buyer);
    await form.getByLabel("Rate at least (%)").fill("6");
    await form.getByLabel("At most months left").fill("13");
    await form.getByLabel("Percent of par").fill("97");
    await form.getByLabel("Budget ($)").fill("10000");
    await form.getByTestId("funding-allow").click();
    await form.getByRole("button", { name: "Confirm allowance" }).click();
    await expect(buyer.getByText("The marketplace may take up to $10,000.00")).toBeVisible({ timeout: 30_000 });
    await form.getByRole("button", { name: "Review offer" }).click();
    await expect(buyer.getByTestId("sign-words")).toContainText(
      "You sign an offer on any note that matches: 97% of par (the principal still owed plus the interest accrued and unpaid) for any active note at 6%+ with at most 13 months left (not yet matured), up to $10,000.00 in all, only while no installment is past due",
    );
    await buyer.getByRole("button", { name: "Sign in wallet" }).click();
    await expect(buyer.getByText("Offer on any matching note signed")).toBeVisible({ timeout: 30_000 });

    const holder = await signIn(browser, alice);
    await holder.goto("/portfolio");
    await connect(holder);
    const offer = holder.getByTestId("offer-received").filter({ hasText: `note #${second}` });
    await expect(offer).toContainText("Offer on any matching note");
    await offer.getByRole("button", { name: "Accept $3,880.72" }).click();
    await offer.getByRole("button", { name: "Sell for $3,880.72" }).click();
    await expect(holder.getByText(`Note #${second} sold for $3,880.72`)).toBeVisible({ timeout: 30_000 });
    expect(await ownerOf(second)).toBe(bob.address.toLowerCase());

    // B's portfolio: the matching offer still open, $3,880.72 of its budget spent.
    await buyer.goto("/portfolio");
    await expect(buyer.getByTestId("offers-made")).toContainText("spent $3,880.72");
    await screenshot(buyer, "orders-03-matching");
  });
});
