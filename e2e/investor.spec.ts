import AxeBuilder from "@axe-core/playwright";
import { test, expect, request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { createPublicClient, createWalletClient, http, maxUint256, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { displayUsd } from "#domain/money";
import { screenshot, skipSplash } from "./helpers";
import { connect, DEMO, login as loginAs, person as newPerson, signIn, type Person } from "./investors";
import { query } from "./db";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { E2E_BASE_URL, E2E_RPC_URL } from "./stack";

/**
 * The investor journey with two investor wallets: browse and filter, buy with a permit and one
 * transaction, see the note in the portfolio, withdraw a repayment, move the note through the vault, relist it,
 * and a second investor buys it. The explorer shows it all without an account.
 */
let api: APIRequestContext;
let admin: { token: string };
let borrower: Person, alice: Person, bob: Person;
let tokenId = "";
let contracts: { loanNote: Address; stablecoin: Address };

const chainClient = () => createPublicClient({ chain: foundry, transport: http(E2E_RPC_URL) });

const login = (email: string, password: string) => loginAs(api, email, password);
const person = (tag: string) => newPerson(api, tag);

test.describe.serial("two investors trade a loan note", () => {
  test.beforeAll(async () => {
    api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
    // The seeded demo admin approves and the seeded demo borrower (dev account #3) borrows; the investors are new.
    admin = { token: await login(DEMO.admin.email, DEMO.admin.password) };
    borrower = {
      ...DEMO.borrower,
      firstName: "Bob",
      lastName: "Borrower",
      key: DEV_ACCOUNTS.demoBorrower,
      address: privateKeyToAccount(DEV_ACCOUNTS.demoBorrower).address,
      token: await login(DEMO.borrower.email, DEMO.borrower.password),
    };
    [alice, bob] = [await person("alice"), await person("bob")];
    const config = (await (await api.get("/api/config")).json()).data;
    contracts = config.contracts;
    const requested = await api.post("/api/loans/request", {
      data: { amount: "4000", purpose: "education", interestRate: 6.5, termMonths: 12 },
      headers: { authorization: `Bearer ${borrower.token}` },
    });
    expect(requested.ok(), await requested.text()).toBeTruthy();
    const loan = (await requested.json()).data;
    const approved = await api.put(`/api/admin/loans/${loan._id}/approve`, { data: {}, headers: { authorization: `Bearer ${admin.token}` } });
    expect(approved.ok(), await approved.text()).toBeTruthy();
    tokenId = String(loan.loanNumber);
  });

  test.afterAll(async () => {
    await api?.dispose();
  });

  test("an investor browses and filters the marketplace, then buys a note with a permit and one transaction", async ({ browser }) => {
    const page = await signIn(browser, alice);
    await page.goto("/marketplace");
    await expect(page.getByRole("heading", { name: "NFT Loan Marketplace" })).toBeVisible();
    await expect(page.getByTestId("tile-total-listed")).not.toContainText("—");
    await page.getByLabel("Search").fill(`#${tokenId}`);
    await expect(page.getByTestId("note-card")).toHaveCount(1);
    await page.getByLabel(/High \(12% and over\)/).check();
    await expect(page.getByText("No loans found")).toBeVisible();
    await page.getByLabel(/High \(12% and over\)/).uncheck();
    await page.getByLabel(/Low \(under 8%\)/).check();
    await expect(page.getByTestId("note-card")).toHaveCount(1);
    await page.getByRole("link", { name: `View Details of note #${tokenId}` }).click();
    // The treasury's listing is 100% of par, the dirty price: the $4,000 principal and day 1's $0.722222 of interest.
    await expect(page.getByTestId("listing-price")).toHaveText("$4,000.72");
    await connect(page);
    await page.getByRole("button", { name: "Buy for $4,000.72" }).click();
    // Nothing moves before the review: what is paid, to whom, and the wallet's test dollars read from the chain.
    const review = page.getByTestId("review");
    await expect(review.getByTestId("review-amount")).toHaveText("$4,000.72");
    await expect(review.getByTestId("review-to")).toContainText("the seller");
    const balance = (await chainClient().readContract({ address: contracts.stablecoin, abi: testDollarAbi, functionName: "balanceOf", args: [alice.address] })) as bigint;
    await expect(review.getByTestId("review-balance")).toHaveText(displayUsd(balance));
    expect((await query<{ holder: string }>("select holder from chain_notes where token_id = $1", [tokenId]))[0].holder).not.toBe(alice.address.toLowerCase());
    await review.getByRole("button", { name: "Confirm and pay $4,000.72" }).click();
    await expect(page.getByText(`Note #${tokenId} is yours`)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("owner-history")).toContainText("Sold");
    await screenshot(page, "investor-01-bought");
    const rows = await query<{ holder: string }>("select holder from chain_notes where token_id = $1", [tokenId]);
    expect(rows[0].holder).toBe(alice.address.toLowerCase());
  });

  test("the note shows in the portfolio, and a repayment is credited and withdrawn", async ({ browser }) => {
    const chain = createPublicClient({ chain: foundry, transport: http(E2E_RPC_URL) });
    const wallet = createWalletClient({ account: privateKeyToAccount(borrower.key), chain: foundry, transport: http(E2E_RPC_URL) });
    await chain.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: contracts.stablecoin, abi: testDollarAbi, functionName: "approve", args: [contracts.loanNote, maxUint256] }) });
    await chain.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: contracts.loanNote, abi: loanNoteAbi, functionName: "repay", args: [BigInt(tokenId), 250_000_000n] }) });
    const page = await signIn(browser, alice);
    await page.goto("/portfolio");
    await expect(page.getByTestId("held-note")).toHaveCount(1);
    await expect(page.getByTestId("credits-available")).toHaveText("$250.00");
    await connect(page);
    await page.getByRole("button", { name: "Withdraw repayments" }).click();
    await expect(page.getByTestId("review").getByTestId("review-amount")).toHaveText("$250.00");
    await page.getByRole("button", { name: "Confirm and withdraw $250.00" }).click();
    await expect(page.getByText("$250.00 withdrawn to your wallet")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("credits-available")).toHaveText("$0.00");
  });

  test("the investor deposits the note in the vault and withdraws it, the reasons kept in the history", async ({ browser }) => {
    const page = await signIn(browser, alice);
    // The vault is in the menu, on the portfolio, and in each note's actions with the note already chosen.
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Vault" })).toHaveAttribute("href", "/nft-transfer");
    await page.goto("/portfolio");
    await expect(page.getByRole("main").getByRole("link", { name: "Vault", exact: true })).toHaveAttribute("href", "/nft-transfer");
    await page.getByTestId("held-note").getByRole("link", { name: "Move to vault" }).click();
    await expect(page).toHaveURL(new RegExp(`/nft-transfer\\?tokenId=${tokenId}&move=deposit$`));
    // The new address comes before the vault page: the portfolio stays drawn (and pressable) until it renders. Its
    // wallet bar's Connect Wallet, pressed then, opened a modal the vault page's own wallet stack replaced unopened.
    await expect(page.getByRole("heading", { name: "NFT Vault Transfer", level: 1 })).toBeVisible();
    await connect(page);
    await expect(page.getByLabel("NFT")).toHaveValue(tokenId);
    await page.getByLabel("NFT").selectOption("");
    await page.getByRole("button", { name: "Deposit to vault" }).click();
    await expect(page.getByText("Please select an NFT")).toBeVisible();
    await page.getByLabel("NFT").selectOption(tokenId);
    await page.getByLabel("Reason (optional)").fill("safekeeping");
    await page.getByRole("button", { name: "Deposit to vault" }).click();
    await expect(page.getByTestId("review").getByTestId("review-to")).toContainText("the vault");
    await page.getByRole("button", { name: "Confirm the deposit" }).click();
    await expect(page.getByText(`Note #${tokenId} is in the vault`).first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("vault-history")).toContainText("safekeeping");
    // The vaulted note's card leads back to the vault's withdraw side, the note chosen.
    await page.goto("/portfolio");
    await page.getByTestId("held-note").getByRole("link", { name: "withdraw it" }).click();
    await expect(page.getByLabel("Withdraw", { exact: true })).toBeChecked();
    await connect(page);
    await expect(page.getByLabel("NFT")).toHaveValue(tokenId);
    await page.getByLabel("Reason (optional)").fill("to sell");
    await page.getByRole("button", { name: "Withdraw from vault" }).click();
    await expect(page.getByTestId("review").getByTestId("review-to")).toContainText(alice.address.slice(0, 6), { ignoreCase: true });
    await page.getByRole("button", { name: "Confirm the withdrawal" }).click();
    await expect(page.getByTestId("vault-history")).toContainText("to sell", { timeout: 30_000 });
    await screenshot(page, "investor-02-vault");
  });

  test("the investor relists the note and a second investor buys it; the explorer shows the sale to anyone", async ({ browser }) => {
    // The second investor watches the marketplace: the new listing arrives live (marketplace:update), no reload.
    const buyer = await signIn(browser, bob);
    await buyer.goto("/marketplace");
    await buyer.getByLabel("Search").fill(`#${tokenId}`);
    await expect(buyer.getByText("No loans found")).toBeVisible();

    const seller = await signIn(browser, alice);
    await seller.goto("/portfolio");
    await connect(seller);
    // Listing is a signature: a fixed price here, said in words before the wallet is asked.
    await seller.getByLabel("Fixed price").check();
    await seller.getByLabel("Price ($)").fill("4100");
    await seller.getByRole("button", { name: "Review listing" }).click();
    await expect(seller.getByTestId("sign-words")).toContainText(`You sign a listing: note #${tokenId} for $4,100.00`);
    await seller.getByRole("button", { name: "Sign in wallet" }).click();
    await expect(seller.getByText(`Note #${tokenId} listed`)).toBeVisible({ timeout: 30_000 });

    await expect(buyer.getByTestId("note-card")).toHaveCount(1, { timeout: 15_000 });
    await buyer.getByRole("link", { name: `View Details of note #${tokenId}` }).click();
    await expect(buyer.getByTestId("listing-price")).toHaveText("$4,100.00");
    await connect(buyer);
    await buyer.getByRole("button", { name: "Buy for $4,100.00" }).click();
    await buyer.getByRole("button", { name: "Confirm and pay $4,100.00" }).click();
    await expect(buyer.getByText(`Note #${tokenId} is yours`)).toBeVisible({ timeout: 30_000 });

    const auditor = await (await browser.newContext()).newPage();
    await skipSplash(auditor);
    await auditor.goto(`/explorer/token/${tokenId}`);
    await expect(auditor.getByTestId("token-details")).toContainText(bob.address, { ignoreCase: true });
    const events = auditor.getByTestId("events");
    // Both sales filled signed listings: the treasury's at par, then alice's at a fixed price.
    await expect(events.getByRole("row").filter({ hasText: "OrderFilled" })).toHaveCount(2);
    await expect(events).toContainText("Deposited");
    await expect(events).toContainText("Withdrawn");
    await events.getByRole("row").filter({ hasText: "OrderFilled" }).last().getByRole("link", { name: /^0x/ }).last().click();
    await expect(auditor.getByTestId("tx-status")).toHaveText("Success");
    await expect(auditor.getByTestId("tx-call")).toContainText("NoteMarketplace.fillListingWithPermit");
    await screenshot(auditor, "investor-03-explorer-tx");
  });

  for (const theme of ["light", "dark"] as const)
    test(`the investor screens pass axe-core in the ${theme} theme`, async ({ browser }) => {
      const found: string[] = [];
      {
        const page = await signIn(browser, bob);
        await page.evaluate((value) => localStorage.setItem("theme", value), theme);
        const [note] = await query<{ origin_tx_hash: string }>("select origin_tx_hash from chain_notes where token_id = $1", [tokenId]);
        for (const [screen, path, ready] of [
          ["marketplace", "/marketplace", "note-card|marketplace-empty"],
          ["note details", `/marketplace/nft/${tokenId}`, "owner-history"],
          ["portfolio", "/portfolio", "held-note|portfolio-empty"],
          ["vault", "/nft-transfer", "vault-form"],
          ["explorer token", `/explorer/token/${tokenId}`, "events"],
          ["explorer tx", `/explorer/tx/${note.origin_tx_hash}`, "events"],
          ["explorer address", `/explorer/address/${bob.address}`, "events"],
        ] as const) {
          await page.goto(path);
          const [first, second] = ready.split("|");
          await expect((second ? page.getByTestId(first).or(page.getByTestId(second)) : page.getByTestId(first)).first()).toBeVisible();
          await page.evaluate(() =>
            Promise.all(
              document
                .getAnimations()
                .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
                .map((a) => a.finished.catch(() => undefined)),
            ),
          );
          // Toasts come and go while the page settles (the shell's own axe journey checks them at rest).
          const results = await new AxeBuilder({ page }).exclude(".toast").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
          for (const v of results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")) {
            found.push(
              `${theme} ${screen}: [${v.impact}] ${v.id} — ${v.help}\n    ${v.nodes
                .slice(0, 5)
                .map((n) => n.target.join(" "))
                .join("\n    ")}`,
            );
          }
        }
        await page.context().close();
      }
      expect(found, found.join("\n")).toEqual([]);
    });
});
