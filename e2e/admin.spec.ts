import { test, expect, type APIRequestContext } from "@playwright/test";
import { loginByForm, newAccount, registerByApi, screenshot, skipSplash } from "./helpers";

// The seeded demo borrower: approved KYC and a verified wallet, so the API accepts their requests.
const BORROWER = { email: "borrower@loanmint.local", password: "Borrower123!" };

async function tokenOf(request: APIRequestContext, account: { email: string; password: string }) {
  const res = await request.post("/api/auth/login", { data: account });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function requestLoan(request: APIRequestContext, token: string, amount: string, collateral?: { type: string; value: string; description: string }) {
  const res = await request.post("/api/loans/request", {
    headers: { Authorization: `Bearer ${token}` },
    data: { amount, purpose: "business", interestRate: 9.5, termMonths: 12, ...(collateral ? { collateral } : {}) },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { data: { _id: string; loanNumber: number } }).data;
}

test("an admin sees a new request live, approves it into a minted and listed note, and cannot reject without a reason", async ({ page, browser }) => {
  await skipSplash(page);

  // 1. A fresh admin (invite code) signs in and watches the loan list with live updates on.
  const admin = newAccount("admin-console");
  await registerByApi(page, admin, { role: "admin", adminInviteCode: "e2e-invite" });
  await loginByForm(page, admin, "Admin");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId("admin-identity")).toContainText(admin.email);
  await expect(page.getByTestId("admin-identity")).toContainText("Administrator");
  await page.goto("/admin/loans");
  await expect(page.getByRole("heading", { level: 1, name: "Manage Loans" })).toBeVisible();
  await expect(page.getByTestId("live-badge").first()).toHaveText("Live updates");

  // The borrower has their own page open in another browser.
  const borrowerContext = await browser.newContext();
  const borrowerPage = await borrowerContext.newPage();
  await skipSplash(borrowerPage);
  await loginByForm(borrowerPage, BORROWER);
  await expect(borrowerPage).toHaveURL(/\/dashboard$/);
  await expect(borrowerPage.getByTestId("live-badge").first()).toHaveText("Live updates");

  // 2. A new request made through the API appears in the bell and the list without a reload.
  const borrowerToken = await tokenOf(page.request, BORROWER);
  // Collateral worth $3,333.33: a 75% loan-to-value, below the wizard's 150% rule, which the reviews must say.
  const loan = await requestLoan(page.request, borrowerToken, "2500", { type: "other", value: "3333.33", description: "Delivery van" });
  await expect(page.getByTestId("notification-count")).toHaveText("1");
  await expect(page.locator(`[data-testid="admin-loan"][data-loan-id="${loan._id}"]`)).toBeVisible();
  await expect(page.getByTestId("sidebar-count-request")).toBeVisible();
  // One toast per new request (the app's notification toast), never a second from the admin pages.
  await expect(page.getByRole("status").filter({ hasText: "New loan request: $2,500.00" })).toHaveCount(1);

  // 3. The bell opens the request's review; approving funds, mints and lists, each with its transaction.
  await page.getByTestId("notification-bell").click();
  await page.getByTestId("notification-item").filter({ hasText: "$2,500.00" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/request\\?loan=${loan._id}$`));
  await expect(page.getByTestId("notification-count")).toHaveCount(0);
  const details = page.getByTestId("loan-details");
  await expect(details).toContainText(`Loan #${loan.loanNumber}`);
  await expect(details.getByTestId("ltv-warning")).toContainText("Loan-to-value 75%");
  await details.getByRole("button", { name: "Approve" }).click();

  const modal = page.getByTestId("decision-modal");
  await expect(modal.getByLabel("Funding amount (USD)")).toHaveValue("2500");
  await expect(modal.getByLabel("Borrower wallet")).toHaveValue(/^0x[0-9a-fA-F]{40}$/);
  await expect(modal.getByLabel("Borrower wallet")).toHaveAttribute("readonly", "");
  await modal.getByRole("button", { name: "Approve, fund and mint" }).click();
  // The review restates what moves and to whom before the server sends anything.
  await expect(modal.getByTestId("approval-principal")).toHaveText("$2,500.00");
  await expect(modal.getByTestId("approval-recipient")).toHaveText(/^0x[0-9a-f]{40}$/);
  await expect(modal.getByTestId("approval-ltv-warning")).toContainText("Loan-to-value 75%");
  await expect(modal.getByTestId("approval-ltv-warning")).toContainText("worth less than 150% of the loan ($2,500.00)");
  await modal.getByRole("button", { name: "Confirm approval" }).click();
  // The success toast lives 2 s (spec): watched for from the click, it cannot pass unseen on a loaded machine.
  await expect(page.getByText("Loan approved successfully!")).toBeVisible({ timeout: 30_000 });
  await expect(modal.getByTestId("step-minted")).toHaveAttribute("data-state", "done", { timeout: 30_000 });
  await expect(modal.getByTestId("step-listed")).toHaveAttribute("data-state", "done", { timeout: 30_000 });
  await expect(modal.getByTestId("mint-tx-link")).toHaveAttribute("href", /\/explorer\/tx\/0x[0-9a-f]{64}$/);
  await expect(modal.getByTestId("step-listed")).toContainText("Signed by the treasury at 100% of par: no transaction, no gas");
  await screenshot(page, "admin-approved");
  await modal.getByRole("button", { name: "Done" }).click();

  // 4. The borrower's open page says so live.
  await expect(borrowerPage.getByText("Loan Approved! $2,500.00 has been approved.").first()).toBeVisible();

  // 5. The note is on the marketplace once the indexer mirrors the listing.
  await expect
    .poll(
      async () => {
        const res = await page.request.get("/api/nfts/marketplace/browse?limit=100", { headers: { Authorization: `Bearer ${borrowerToken}` } });
        const body = (await res.json()) as { data: { nfts: { tokenId: string }[] } };
        return body.data.nfts.map((n) => n.tokenId);
      },
      { timeout: 30_000 },
    )
    .toContain(String(loan.loanNumber));

  // 6. Rejecting another request without a reason is refused in the form.
  const second = await requestLoan(page.request, borrowerToken, "1800");
  const row = page.locator(`[data-testid="admin-loan"][data-loan-id="${second._id}"]`);
  await page.goto("/admin/loans");
  await row.getByRole("button", { name: `Reject loan #${second.loanNumber}` }).click();
  const reject = page.getByTestId("decision-modal");
  await reject.getByRole("button", { name: "Reject loan" }).click();
  await expect(reject.getByTestId("rejection-error")).toHaveText("Please provide a rejection reason");
  await reject.getByLabel("Rejection reason").fill("Income could not be verified");
  await reject.getByRole("button", { name: "Reject loan" }).click();
  await expect(page.getByText("Loan rejected").first()).toBeVisible();
  await expect(row.getByTestId("status-badge").first()).toHaveText("rejected");

  // The borrower's page of the rejected request says so, with the reason, and shows no balance or payment as if live.
  await borrowerPage.goto(`/loans/${second._id}`);
  await expect(borrowerPage.getByTestId("loan-rejected")).toContainText("Reason: Income could not be verified");
  await expect(borrowerPage.getByTestId("loan-remaining")).toHaveCount(0);
  await expect(borrowerPage.getByText("Monthly payment")).toHaveCount(0);
  await expect(borrowerPage.getByTestId("schedule")).toHaveCount(0);

  await borrowerContext.close();
});
