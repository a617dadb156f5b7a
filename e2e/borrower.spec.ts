import { test, expect, request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { createPublicClient, http, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { displayUsd, parseUsd } from "#domain/money";
import { installTestWallet } from "./testWallet";
import { loginByForm, newAccount, registerByApi, screenshot, skipSplash, expectOneToastClearOfTitle } from "./helpers";
import { query } from "./db";
import { E2E_ADMIN_INVITE, E2E_BASE_URL, E2E_RPC_URL } from "./stack";

/**
 * The borrower journey: a new borrower links a wallet and uploads KYC, an admin approves it,
 * the borrower requests a loan through the wizard, the admin approves it and the principal arrives, one
 * installment is repaid on-chain, then an early payoff burns the note and the loan shows completed.
 */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const USD = 1_000_000n;

let api: APIRequestContext;
let adminToken = "";

async function login(email: string, password: string): Promise<string> {
  const res = await api.post("/api/auth/login", { data: { email, password } });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()).data.token;
}

test.beforeAll(async () => {
  api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
  const admin = newAccount("admin");
  const registered = await api.post("/api/auth/register", { data: { ...admin, role: "admin", adminInviteCode: E2E_ADMIN_INVITE } });
  expect(registered.ok(), await registered.text()).toBeTruthy();
  adminToken = await login(admin.email, admin.password);
});

test.afterAll(async () => {
  await api?.dispose();
});

test("a new borrower verifies, borrows through the wizard, repays an installment and pays off early", async ({ page }) => {
  const asAdmin = { authorization: `Bearer ${adminToken}` };
  await skipSplash(page);
  const wallet = await installTestWallet(page);
  const account = newAccount("borrower");
  await registerByApi(page, account);
  await loginByForm(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("kyc-banner")).toContainText("KYC Required");

  // 1. Link a wallet (a SIWE signature) and get gas and test dollars from the dev faucet.
  await page.goto("/profile");
  const card = page.getByTestId("wallet-card");
  await card.getByRole("button", { name: "Connect Wallet" }).click();
  await page.getByTestId("rk-wallet-option-injected").click();
  await expect(page.getByText("Wallet connected successfully!")).toBeVisible();
  const faucet = await api.post("/api/dev/faucet", { data: { address: wallet.address } });
  expect(faucet.ok(), await faucet.text()).toBeTruthy();

  // The wizard says what is missing before anything is sent.
  await page.goto("/loans/request");
  await expect(page.getByTestId("borrow-gate")).toContainText("KYC verification required");
  await expect(page.getByTestId("borrow-gate").getByRole("link", { name: "Go to KYC verification" })).toHaveAttribute("href", "/kyc");

  // 1b. Upload KYC documents.
  await page.goto("/kyc");
  await expect(page.getByTestId("kyc-status")).toHaveAttribute("data-status", "none");
  await page.getByRole("button", { name: "Submit for verification" }).click();
  await expect(page.getByText("Please upload at least one document").first()).toBeVisible();
  await page.getByLabel("ID document type").selectOption("passport");
  await page.getByLabel("ID document", { exact: true }).setInputFiles({ name: "passport.png", mimeType: "image/png", buffer: PNG });
  await page.getByLabel("Proof of address").setInputFiles({ name: "bill.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Submit for verification" }).click();
  await expect(page.getByTestId("kyc-status")).toHaveAttribute("data-status", "pending");
  await expect(page.getByTestId("kyc-form")).toHaveCount(0);
  await screenshot(page, "borrower-01-kyc-pending");

  // 2. The admin approves the KYC; the page follows live.
  const [{ id: userId }] = await query<{ id: string }>("select id from users where email = $1", [account.email]);
  const decided = await api.put(`/api/admin/users/${userId}/kyc`, { data: { action: "approve" }, headers: asAdmin });
  expect(decided.ok(), await decided.text()).toBeTruthy();
  await expect(page.getByTestId("kyc-status")).toHaveAttribute("data-status", "approved", { timeout: 20_000 });
  await expect(page.getByTestId("kyc-approved")).toBeVisible();

  // 3. The wizard: Next only when the step is valid, Previous disabled on step 1, submission on step 3.
  await page.goto("/loans/request");
  await expect(page.getByTestId("borrow-gate")).toHaveCount(0);
  const wizard = page.getByTestId("loan-wizard");
  await expect(wizard.getByRole("button", { name: "Previous" })).toBeDisabled();
  await expect(wizard.getByRole("button", { name: "Next" })).toBeDisabled();
  await wizard.getByLabel("Loan amount (USD)").fill("500");
  await expect(wizard.getByText("Minimum loan amount is $1,000")).toBeVisible();
  await wizard.getByLabel("Loan amount (USD)").fill("5000");
  await wizard.getByLabel("Purpose").selectOption("Business Investment");
  await wizard.getByRole("button", { name: "Next" }).click();
  await wizard.getByLabel("Interest rate (% a year)").fill("10");
  await wizard.getByLabel("Term", { exact: true }).selectOption("12");
  await expect(page.getByTestId("wizard-estimate")).toContainText("$439.58");
  await wizard.getByRole("button", { name: "Next" }).click();
  await expect(wizard.getByRole("button", { name: "Submit Request" })).toBeDisabled();
  // A van, not an NFT: with type "NFT" the wizard asks for a piece of the wallet (e2e/collateral.spec.ts).
  await wizard.getByLabel("Collateral type").selectOption("other");
  await wizard.getByLabel("Collateral value (USD)").fill("8000");
  await wizard.getByLabel("Collateral description").fill("A 2019 delivery van, title in my name");
  await wizard.getByRole("button", { name: "Submit Request" }).click();
  await expect(page).toHaveURL(/\/loans\/my-loans$/);
  const item = page.getByTestId("my-loans-list").getByTestId("loan-item");
  await expect(item).toHaveCount(1);
  await expect(item).toContainText("Pending");
  const loanId = (await item.getAttribute("data-loan-id"))!;

  // 4. The admin approves; the approval funds the borrower's verified wallet with the principal.
  const config = (await (await api.get("/api/config")).json()).data as { contracts: { stablecoin: Address; loanNote: Address } };
  const chain = createPublicClient({ chain: foundry, transport: http(E2E_RPC_URL) });
  const balance = () => chain.readContract({ address: config.contracts.stablecoin, abi: testDollarAbi, functionName: "balanceOf", args: [wallet.address] }) as Promise<bigint>;
  const before = await balance();
  const approved = await api.put(`/api/admin/loans/${loanId}/approve`, { data: {}, headers: asAdmin });
  expect(approved.ok(), await approved.text()).toBeTruthy();
  expect(await balance()).toBe(before + 5_000n * USD);

  // 5. Repay one installment: one permit signature, one repayWithPermit transaction; the schedule updates.
  await page.goto(`/loans/${loanId}`);
  await expect(page.getByTestId("loan-details")).toHaveAttribute("data-status", "active", { timeout: 20_000 });
  await expect(page.getByTestId("schedule").locator("tbody tr")).toHaveCount(12);
  await expect(page.getByTestId("note-holder")).not.toContainText("Not yet indexed", { timeout: 20_000 });
  const panel = page.getByTestId("repay-panel");
  const paying = panel.getByText("Paying from");
  const connectButton = panel.getByRole("button", { name: "Connect Wallet" });
  await expect(paying.or(connectButton)).toBeVisible();
  if (await connectButton.isVisible()) {
    await connectButton.click();
    await page.getByTestId("rk-wallet-option-injected").click();
    await expect(paying).toBeVisible();
  }
  await page.getByTestId("repay-installment").click();
  const installmentReview = page.getByTestId("review");
  await expect(installmentReview.getByTestId("review-amount")).toHaveText("$439.58");
  await expect(installmentReview.getByTestId("review-balance")).toHaveText(displayUsd(await balance()));
  await installmentReview.getByRole("button", { name: "Confirm and pay $439.58" }).click();
  await expect(page.getByText("Installment 1 paid")).toBeVisible({ timeout: 30_000 });
  const firstRow = page.getByTestId("schedule").locator("tbody tr").first();
  await expect(firstRow).toHaveAttribute("data-state", "paid", { timeout: 20_000 });
  // The timeline shows the repayment in cents, as "Repaid" does (docs/adr/0040-amounts-on-screen.md).
  await expect(page.getByTestId("loan-repaid")).toHaveText("$439.58");
  await expect(page.getByTestId("timeline")).toContainText("Repayment of $439.58");
  await expect(page.getByTestId("timeline")).not.toContainText("$439.579436");
  await expect(page.getByTestId("loan-interest")).toBeVisible();
  await screenshot(page, "borrower-02-installment-paid");

  // 6. Early payoff burns the note; the loan shows completed.
  // The review shows the contract's payoffAmount for today, split into principal and this period's interest, and
  // says why it is not the remaining balance; nothing is paid until it is confirmed.
  await page.getByTestId("repay-payoff").click();
  const payoffReview = page.getByTestId("review");
  await expect(payoffReview.getByTestId("review-amount")).toBeVisible();
  const tokenId = BigInt((await query<{ loan_number: string }>("select loan_number from loans where id = $1", [loanId]))[0].loan_number);
  const payoff = (await chain.readContract({ address: config.contracts.loanNote, abi: loanNoteAbi, functionName: "payoffAmount", args: [tokenId] })) as bigint;
  await expect(payoffReview.getByTestId("review-amount")).toHaveText(displayUsd(payoff));
  const principalLeft = parseUsd((await payoffReview.getByTestId("review-principal").innerText()).replace(/[$,]/g, ""));
  const accrued = parseUsd((await payoffReview.getByTestId("review-accrued").innerText()).replace(/[$,]/g, ""));
  const ahead = parseUsd((await payoffReview.getByTestId("review-ahead").innerText()).replace(/[−$,]/g, ""));
  // The installment paid on day one carried its whole month's interest; the payoff charges only the days accrued.
  expect(ahead).toBe(439_580_000n);
  // The lines add up, to the cent, to the amount shown.
  expect(principalLeft + accrued - ahead).toBe(parseUsd(displayUsd(payoff).replace(/[$,]/g, "")));
  await expect(payoffReview.getByTestId("review-why")).toContainText("interest accrued in the current period");
  await expect(page.getByTestId("loan-repaid")).toHaveText("$439.58");
  await screenshot(page, "borrower-03-payoff-review");
  await payoffReview.getByRole("button", { name: `Confirm and pay off ${displayUsd(payoff)}` }).click();
  await expect(page.getByText("Loan paid off")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("loan-completed")).toBeVisible({ timeout: 20_000 });
  // The payoff's news (its own toast, then the notices of the repayment) is one toast beside the title, and at
  // the bottom of a phone's screen.
  await expectOneToastClearOfTitle(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectOneToastClearOfTitle(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(page.getByTestId("note-holder")).toHaveText("Burned (repaid)");
  // The schedule shows what was really paid: the one installment, the rest settled by the payoff, and the payoff
  // on its own line; together the amount repaid, not twelve installments.
  const schedule = page.getByTestId("schedule");
  await expect(schedule.locator('tbody tr[data-state="paid"]')).toHaveCount(1, { timeout: 20_000 });
  await expect(schedule.locator('tbody tr[data-state="settled"]')).toHaveCount(11);
  await expect(schedule.getByTestId("payoff-line")).toContainText(displayUsd(payoff));
  await expect(schedule.getByTestId("total-paid")).toContainText(displayUsd(439_580_000n + payoff));
  await expect(page.getByTestId("loan-repaid")).toHaveText(displayUsd(439_580_000n + payoff));
  const [note] = await query<{ burned: boolean; status: string }>("select n.burned, n.status from chain_notes n join loans l on l.loan_number::numeric = n.token_id where l.id = $1", [loanId]);
  expect(note).toEqual({ burned: true, status: "repaid" });
  await screenshot(page, "borrower-03-paid-off");

  // The indexer recorded the completion when it mirrored the payoff; My Loans and the dashboard read it.
  await page.goto("/loans/my-loans");
  await expect(page.getByTestId("my-loans-list").getByTestId("loan-item")).toContainText("Completed");
  await page.goto("/transactions");
  const rows = page.getByTestId("transactions").locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2)).toHaveAttribute("data-kind", "loan_disbursement");
  await expect(rows.nth(2)).toContainText("$5,000.00");
  await expect(rows.nth(1)).toContainText("$439.58");
  await expect(rows.first().getByRole("link", { name: /^0x/ }).last()).toHaveAttribute("href", /^\/explorer\/tx\/0x[0-9a-f]{64}$/);
  await screenshot(page, "borrower-06-transactions");
  await page.goto("/dashboard");
  await expect(page.getByTestId("tile-total-borrowed")).toContainText("$5,000.00");
  await expect(page.getByTestId("tile-nft-loans")).toContainText("1");
  await expect(page.getByTestId("tile-active-loans")).toContainText("0 of 1");
  await expect(page.getByTestId("recent-transactions")).toContainText("Loan disbursement");
  await expect(page.getByTestId("performance")).toContainText("100%");
});

test("the loan management page judges the form by the server's rules, lists the requests with details, and My Loans filters them", async ({ page }) => {
  await skipSplash(page);
  const account = newAccount("manager");
  await registerByApi(page, account);
  await query("update users set kyc_status = 'approved', wallet_address = $1 where email = $2", [privateKeyToAccount(generatePrivateKey()).address.toLowerCase(), account.email]);
  await loginByForm(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/loans");
  await expect(page.getByTestId("borrow-gate")).toHaveCount(0);
  const form = page.getByTestId("loan-form");
  await form.getByLabel("Loan amount (USD)").fill("2000000");
  await form.getByLabel("Interest rate (% a year)").fill("60");
  await form.getByRole("button", { name: "Submit Loan Request" }).click();
  await expect(page.getByText("Please fix the errors in the form")).toBeVisible();
  await expect(form.getByText("Maximum loan amount is $1,000,000")).toBeVisible();
  await expect(form.getByText("Loan purpose is required")).toBeVisible();
  await expect(form.getByText("Interest rate cannot exceed 50%")).toBeVisible();
  // An error clears when its field is edited.
  await form.getByLabel("Loan amount (USD)").fill("2500");
  await expect(form.getByText("Maximum loan amount is $1,000,000")).toHaveCount(0);
  await form.getByLabel("Purpose").selectOption("education");
  await form.getByLabel("Interest rate (% a year)").fill("7.25");
  await form.getByRole("button", { name: "Submit Loan Request" }).click();
  await expect(page.getByText("Loan request submitted successfully")).toBeVisible();
  await form.getByLabel("Loan amount (USD)").fill("12000");
  await form.getByLabel("Purpose").selectOption("business");
  await form.getByRole("button", { name: "Submit Loan Request" }).click();
  const requests = page.getByTestId("my-requests").getByTestId("loan-item");
  await expect(requests).toHaveCount(2);
  await requests.filter({ hasText: "$2,500.00" }).getByRole("button", { name: "Details" }).click();
  const modal = page.getByTestId("loan-modal");
  await expect(modal).toContainText("7.25%");
  await expect(modal).toContainText("Education");
  await screenshot(page, "borrower-04-management-modal");
  await modal.getByRole("button", { name: "Close" }).click();
  await expect(modal).toHaveCount(0);

  await page.goto("/loans/my-loans");
  await expect(page.getByTestId("my-loans-stats")).toContainText("2");
  const list = page.getByTestId("my-loans-list").getByTestId("loan-item");
  await expect(list.first()).toContainText("$12,000.00");
  await page.getByLabel("Sort by").selectOption("amountLow");
  await expect(list.first()).toContainText("$2,500.00");
  await page.getByLabel("Search").fill("education");
  await expect(list).toHaveCount(1);
  await page.getByLabel("Search").fill("");
  await page.getByLabel("Status").selectOption("completed");
  await expect(page.getByTestId("my-loans-empty")).toContainText("No loans match");
  await page.getByLabel("Status").selectOption("pending");
  await expect(list).toHaveCount(2);
  await list.first().getByRole("link", { name: "View Details" }).click();
  await expect(page).toHaveURL(/\/loans\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("loan-details")).toHaveAttribute("data-status", "pending");

  await page.goto("/transactions");
  await expect(page.getByTestId("transactions-empty")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page.getByTestId("tile-active-loans")).toContainText("0 of 2");
  await expect(page.getByTestId("recent-loans")).toContainText("$12,000.00");
  await screenshot(page, "borrower-05-dashboard");
});
