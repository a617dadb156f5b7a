import { test, expect, request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { screenshot } from "./helpers";
import { connect, DEMO, login, person, signIn, type Person } from "./investors";
import { expectFitsScreen, PHONE } from "./phone";
import { E2E_BASE_URL } from "./stack";
import {
  contractsOf,
  defaultLoan,
  demoPiece,
  giveNote,
  hostileCollection,
  jsonUri,
  payOff,
  pieceOwner,
  pledgedRequest,
  refusingCollection,
  securedLoan,
  wizardAtCollateral,
  type Contracts,
  type SecuredLoan,
} from "./securedLoans";

/**
 * NFT collateral's displays in the browser: a note's escrowed NFT on the marketplace's cards and filter, the note page, the
 * portfolio, the borrower's loan page and the explorer, always as an `<img>` of a checked data URI; an attacker's
 * collection (markup in its names, script in its SVG, HTML for an image) never becomes markup; the holder of a
 * defaulted note claims the NFT. The pledge → approve → payoff journey is e2e/collateral.spec.ts.
 */
let api: APIRequestContext;
let admin = "";
let borrower: Person, investor: Person;
let contracts: Contracts;
let demo: SecuredLoan,
  htmlImage: SecuredLoan,
  scriptSvg: SecuredLoan,
  unsecured = "";
let demoPieceId = "";

const HOSTILE_COLLECTION = `<img src=x onerror="window.__pwned='collection'">Evil Art`;
const scriptSvg64 = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="window.__pwned='svg'"><script>window.__pwned='svg-script'</script><rect width="10" height="10" fill="red"/></svg>`,
).toString("base64");

/** No script of an attacker ran, and nothing they wrote became an element: only text and `<img>`. */
async function expectNothingRan(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned ?? null)).toBeNull();
  const scope = page.getByTestId("pledged-nft");
  await expect(scope.locator("svg, script, iframe, object, embed, foreignObject")).toHaveCount(0);
  for (const src of await scope.locator("img").evaluateAll((imgs) => imgs.map((img) => img.getAttribute("src") ?? ""))) {
    expect(src).toMatch(/^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/);
  }
}

test.describe.serial("a note's NFT collateral, shown and claimed", () => {
  test.beforeAll(async () => {
    test.setTimeout(300_000);
    api = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });
    admin = await login(api, DEMO.admin.email, DEMO.admin.password);
    [borrower, investor] = [await person(api, "pledger"), await person(api, "claimer")];
    contracts = await contractsOf(api);

    demoPieceId = await demoPiece(contracts, borrower.address);
    const evil = await hostileCollection(contracts, HOSTILE_COLLECTION, borrower.address, {
      "1": jsonUri({ name: `<b onmouseover="window.__pwned='name'">Evil #1</b>`, image: `data:text/html;base64,${Buffer.from("<script>window.__pwned='html'</script>").toString("base64")}` }),
      "2": jsonUri({ name: "Evil #2 <script>window.__pwned='name'</script>", image: `data:image/svg+xml;base64,${scriptSvg64}` }),
    });
    demo = await securedLoan(api, borrower, admin, { collection: contracts.demoCollection, pieceId: demoPieceId, amount: "1000", appraisal: "1500", termMonths: 1 });
    htmlImage = await securedLoan(api, borrower, admin, { collection: evil, pieceId: "1", amount: "1000", appraisal: "2000" });
    scriptSvg = await securedLoan(api, borrower, admin, { collection: evil, pieceId: "2", amount: "1000", appraisal: "2000" });
    const plain = await api.post("/api/loans/request", { data: { amount: "1200", purpose: "education", interestRate: 7, termMonths: 12 }, headers: { authorization: `Bearer ${borrower.token}` } });
    expect(plain.ok(), await plain.text()).toBeTruthy();
    const plainLoan = (await plain.json()).data;
    const approved = await api.put(`/api/admin/loans/${plainLoan._id}/approve`, { data: {}, headers: { authorization: `Bearer ${admin}` } });
    expect(approved.ok(), await approved.text()).toBeTruthy();
    unsecured = String(plainLoan.loanNumber);
  });

  test.afterAll(async () => {
    await api?.dispose();
  });

  test("the marketplace shows the piece on the note's card and filters NFT-secured and unsecured notes", async ({ browser }) => {
    const page = await signIn(browser, investor);
    await page.goto("/marketplace?collateral=nft");
    await expect(page.getByTestId("collateral-filter")).toHaveValue("nft");
    const card = page.getByTestId("note-card").filter({ has: page.locator(`#note-${demo.tokenId}`) });
    await expect(card.getByTestId("pledged-nft-title")).toHaveText(`LoanMint Demo Art #${demoPieceId}`, { timeout: 30_000 });
    await expect(card.getByTestId("pledged-nft-image")).toHaveAttribute("src", /^data:image\/svg\+xml;base64,/);
    await expect(card.getByTestId("pledged-nft-state")).toHaveText("In escrow");
    await expect(card.getByTestId("pledged-nft-ltv")).toHaveText("LTV 66.7%");
    await expect(page.locator(`#note-${unsecured}`)).toHaveCount(0);
    // Every card the filter keeps is secured.
    await expect(page.getByTestId("card-unsecured")).toHaveCount(0);
    await screenshot(page, "collateral-01-marketplace");

    await page.getByTestId("collateral-filter").selectOption("none");
    await expect(page).toHaveURL(/collateral=none/);
    await expect(page.locator(`#note-${unsecured}`)).toBeVisible();
    await expect(page.getByTestId("pledged-nft")).toHaveCount(0);
    await expect(page.locator(`#note-${demo.tokenId}`)).toHaveCount(0);

    await page.getByTestId("collateral-filter").selectOption("");
    await expect(page).not.toHaveURL(/collateral=/);
    await expect(page.locator(`#note-${demo.tokenId}`)).toBeVisible();
    await expect(page.locator(`#note-${unsecured}`)).toBeVisible();
  });

  test("an attacker's collection is shown as text and a checked <img> only: no markup, no script", async ({ browser }) => {
    const page = await signIn(browser, investor);
    await page.goto("/marketplace?collateral=nft");
    await expect(page.locator(`#note-${scriptSvg.tokenId}`)).toBeVisible({ timeout: 30_000 });
    await expectNothingRan(page);

    // An HTML "image" is no image: the card names the piece beside a placeholder.
    await page.goto(`/marketplace/nft/${htmlImage.tokenId}`);
    const html = page.getByTestId("note-collateral");
    await expect(html.getByTestId("pledged-nft-placeholder")).toBeVisible({ timeout: 30_000 });
    await expect(html.getByTestId("pledged-nft-image")).toHaveCount(0);
    await expect(html.getByTestId("pledged-nft-title")).toHaveText(`<b onmouseover="window.__pwned='name'">Evil #1</b>`);
    await expect(html).toContainText(HOSTILE_COLLECTION.slice(0, 20));
    await html.getByTestId("pledged-nft-title").hover();
    await expectNothingRan(page);

    // An SVG with a script is a valid image: drawn as an <img>, where no script runs.
    await page.goto(`/marketplace/nft/${scriptSvg.tokenId}`);
    const svg = page.getByTestId("note-collateral");
    await expect(svg.getByTestId("pledged-nft-image")).toHaveAttribute("src", `data:image/svg+xml;base64,${scriptSvg64}`, { timeout: 30_000 });
    await expect(svg.getByTestId("pledged-nft-title")).toHaveText("Evil #2 <script>window.__pwned='name'</script>");
    await page.waitForTimeout(500);
    await expectNothingRan(page);

    // The explorer reads the same piece from the chain, under the same rule.
    await page.goto(`/explorer/token/${scriptSvg.tokenId}`);
    await expect(page.getByTestId("token-collateral").getByTestId("pledged-nft-image")).toHaveAttribute("src", /^data:image\/svg\+xml;base64,/, { timeout: 30_000 });
    await expectNothingRan(page);
    await screenshot(page, "collateral-02-hostile");
  });

  test("the note, the borrower's loan and the explorer show the piece, and fit a 390 px screen", async ({ browser }) => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await page.addInitScript(() => sessionStorage.setItem("splash-seen", "1"));
    await page.goto("/login");
    await page.getByLabel("Email").fill(borrower.email);
    await page.getByLabel("Password", { exact: true }).fill(borrower.password);
    await page.getByRole("button", { name: "Sign in as User" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.goto(`/marketplace/nft/${demo.tokenId}`);
    const note = page.getByTestId("note-collateral");
    await expect(note.getByTestId("pledged-nft-image")).toHaveAttribute("src", /^data:image\/svg\+xml;base64,/, { timeout: 30_000 });
    await expect(note.getByTestId("pledged-nft-appraisal")).toHaveText("$1,500.00");
    await expect(note.getByTestId("pledged-nft-ltv")).toHaveText("66.7%");
    await expectFitsScreen(page);

    await page.goto(`/loans/${demo.loanId}`);
    const loan = page.getByTestId("loan-collateral");
    await expect(loan.getByTestId("pledged-nft-state")).toHaveText("In escrow", { timeout: 30_000 });
    await expect(loan.getByTestId("loan-collateral-words")).toContainText("the final payment returns it to your wallet");
    // The lock is in the loan's timeline at its block's time, with its transaction.
    const lock = page.getByTestId("timeline").locator("li").filter({ hasText: "NFT locked in escrow" });
    await expect(lock).toContainText(`LoanMint Demo Art #${demoPieceId} moved from the borrower's wallet into the loan note's escrow`);
    await expect(lock.getByRole("link")).toBeVisible();
    await expectFitsScreen(page);

    await page.goto(`/explorer/token/${demo.tokenId}`);
    await expect(page.getByTestId("token-collateral").getByTestId("pledged-nft-title")).toHaveText(`LoanMint Demo Art #${demoPieceId}`, { timeout: 30_000 });
    await expectFitsScreen(page);

    await page.goto(`/marketplace?collateral=nft`);
    await expect(page.locator(`#note-${demo.tokenId}`)).toBeVisible({ timeout: 30_000 });
    await expectFitsScreen(page);
    await screenshot(page, "collateral-03-phone");
    await context.close();
  });

  test("the collateral views pass axe-core: cards, the note's section with a picture and a placeholder, the loan page", async ({ browser }) => {
    const page = await signIn(browser, borrower);
    const found: string[] = [];
    for (const [path, ready] of [
      ["/marketplace?collateral=nft", `#note-${demo.tokenId}`],
      [`/marketplace/nft/${demo.tokenId}`, "[data-testid=pledged-nft-image]"],
      [`/marketplace/nft/${htmlImage.tokenId}`, "[data-testid=pledged-nft-placeholder]"],
      [`/loans/${demo.loanId}`, "[data-testid=loan-collateral]"],
      [`/explorer/token/${demo.tokenId}`, "[data-testid=token-collateral] [data-testid=pledged-nft-image]"],
    ] as const) {
      await page.goto(path);
      await expect(page.locator(ready).first()).toBeVisible({ timeout: 30_000 });
      const results = await new AxeBuilder({ page }).include("[data-testid=pledged-nft]").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
      for (const v of results.violations.filter((v) => v.impact === "serious" || v.impact === "critical"))
        found.push(`${path}: ${v.id} — ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
    }
    expect(found).toEqual([]);
  });

  test("the holder of a defaulted note claims the NFT: the words first, then one transaction", async ({ browser }) => {
    await giveNote(contracts, demo.tokenId, investor.address);
    await defaultLoan(api, contracts, demo, admin);

    // Someone else sees that the holder may claim it, and no button.
    const other = await signIn(browser, borrower);
    await other.goto(`/marketplace/nft/${demo.tokenId}`);
    await expect(other.getByTestId("collateral-claimable")).toBeVisible({ timeout: 30_000 });
    await expect(other.getByTestId("claim-collateral")).toHaveCount(0);

    const page = await signIn(browser, investor);
    await page.goto("/portfolio");
    const held = page.getByTestId("held-note").filter({ has: page.locator(`#held-${demo.tokenId}`) });
    await expect(held.getByTestId("pledged-nft-state")).toHaveText("In escrow", { timeout: 30_000 });
    await expect(held.getByTestId("claim-collateral")).toBeVisible();

    await page.goto(`/marketplace/nft/${demo.tokenId}`);
    await connect(page);
    const section = page.getByTestId("note-collateral");
    await section.getByTestId("claim-collateral").click();
    await expect(section.getByTestId("claim-words")).toHaveText(
      `The note is settled and burned; LoanMint Demo Art #${demoPieceId} moves to your wallet ${investor.address.toLowerCase().slice(0, 6)}...${investor.address.toLowerCase().slice(-4)}.`,
    );
    await section.getByTestId("claim-confirm").click();
    await expect(page.getByText(`LoanMint Demo Art #${demoPieceId} is now in your wallet`).first()).toBeVisible({ timeout: 30_000 });
    expect(await pieceOwner(contracts.demoCollection, demoPieceId)).toBe(investor.address.toLowerCase());
    await expect(section.getByTestId("pledged-nft-state")).toHaveText("Claimed by the note holder", { timeout: 30_000 });
    // The burned note reads as settled by the claim, not as repaid.
    await expect(page.getByTestId("not-listed")).toHaveText("Settled by the claim of its NFT after a default: this note no longer exists.");
    await expect(page.getByTestId("owner-history")).toContainText("Burned when its NFT was claimed");
    await screenshot(page, "collateral-04-claimed");

    // The borrower's loan page says what happened.
    await other.goto(`/loans/${demo.loanId}`);
    await expect(other.getByTestId("loan-collateral").getByTestId("pledged-nft-state")).toHaveText("Claimed by the note holder", { timeout: 30_000 });
    await expect(other.getByTestId("note-holder")).toHaveText("Burned (its NFT was claimed)");
  });

  test("the API refuses the claim of an active note in its own words", async () => {
    // The second evil note is active: nobody may claim it, and the API says so.
    const res = await api.post(`/api/nfts/${scriptSvg.tokenId}/collateral/claim`, { data: {}, headers: { authorization: `Bearer ${investor.token}` } });
    expect([403, 409]).toContain(res.status());
    expect((await res.json()).message).toMatch(/Only the note's holder can claim its collateral|This note's collateral cannot be claimed now/);
  });

  test("the borrower pulls back an NFT its collection refused to return at the final payment", async ({ browser }) => {
    const refusing = await refusingCollection(contracts, borrower.address, "7");
    const loan = await securedLoan(api, borrower, admin, { collection: refusing.collection, pieceId: "7", amount: "1000", appraisal: "2500" });
    // The collection refuses to let the piece leave the escrow: the payoff still goes through, the return does not.
    await refusing.refuse(contracts.collateralEscrow);
    await payOff(contracts, borrower.key, loan.tokenId);
    expect(await pieceOwner(refusing.collection, "7")).toBe(contracts.collateralEscrow.toLowerCase());

    const page = await signIn(browser, borrower);
    await page.goto(`/loans/${loan.loanId}`);
    const section = page.getByTestId("loan-collateral");
    await expect(section.getByTestId("pledged-nft-state")).toHaveText("Return failed – claim it back", { timeout: 30_000 });
    await expect(section.getByTestId("loan-collateral-words")).toContainText("refused the return");
    await refusing.refuse(null);
    await connect(page);
    await section.getByTestId("claim-collateral").click();
    await expect(section.getByTestId("claim-words")).toContainText(`Hostile #7 moves back to your wallet ${borrower.address.toLowerCase().slice(0, 6)}...`);
    await section.getByTestId("claim-confirm").click();
    await expect(page.getByText("Hostile #7 is back in your wallet").first()).toBeVisible({ timeout: 30_000 });
    expect(await pieceOwner(refusing.collection, "7")).toBe(borrower.address.toLowerCase());
    await expect(section.getByTestId("pledged-nft-state")).toHaveText("Returned to borrower", { timeout: 30_000 });
    // The timeline keeps the refusal at the final payment, then the pull.
    const timeline = page.getByTestId("timeline");
    await expect(timeline.locator("li").filter({ hasText: "NFT return failed" })).toContainText("the collection refused to return");
    await expect(timeline.locator("li").filter({ hasText: /^NFT returned/ })).toContainText(`returned to ${borrower.address.toLowerCase().slice(0, 6)}…`);
    await screenshot(page, "collateral-05-pulled-back");
  });

  test("a rejected request's NFT reads released on its page and in the list, and the wizard offers it again", async ({ browser }) => {
    const pieceId = await demoPiece(contracts, borrower.address);
    const loanId = await pledgedRequest(api, borrower, { collection: contracts.demoCollection, pieceId, amount: "1000", appraisal: "1500" });
    const rejected = await api.put(`/api/admin/loans/${loanId}/reject`, { data: { rejectionReason: "Not this time" }, headers: { authorization: `Bearer ${admin}` } });
    expect(rejected.ok(), await rejected.text()).toBeTruthy();

    const page = await signIn(browser, borrower);
    await page.goto(`/loans/${loanId}`);
    await expect(page.getByTestId("collateral-released")).toHaveText(`LoanMint Demo Art #${pieceId} is released: nothing was held in escrow, and you can pledge it to a new request.`, {
      timeout: 30_000,
    });
    await page.goto("/loans/my-loans");
    await expect(page.locator(`[data-loan-id="${loanId}"]`).getByTestId("loan-item-collateral")).toHaveText(`Offered LoanMint Demo Art #${pieceId} · Released – free to pledge again`);

    await wizardAtCollateral(page, "1000");
    const card = page.getByTestId("nft-pick").and(page.locator(`[data-collection="${contracts.demoCollection.toLowerCase()}"][data-token-id="${pieceId}"]`));
    await expect(card.getByRole("radio")).toBeEnabled({ timeout: 20_000 });
    await expect(card).not.toContainText("Already pledged");
  });

  test("a payoff made elsewhere returns the NFT live: the loan page follows and names the piece", async ({ browser }) => {
    const pieceId = await demoPiece(contracts, borrower.address);
    const loan = await securedLoan(api, borrower, admin, { collection: contracts.demoCollection, pieceId, amount: "1000", appraisal: "1600" });
    const page = await signIn(browser, borrower);
    await page.goto(`/loans/${loan.loanId}`);
    const section = page.getByTestId("loan-collateral");
    await expect(section.getByTestId("pledged-nft-state")).toHaveText("In escrow", { timeout: 30_000 });
    await expect(page.locator("html")).toHaveAttribute("data-realtime", "live", { timeout: 30_000 });

    await payOff(contracts, borrower.key, loan.tokenId);
    await expect(page.getByText(`LoanMint Demo Art #${pieceId} is back in your wallet`, { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(section.getByTestId("pledged-nft-state")).toHaveText("Returned to borrower");
    expect(await pieceOwner(contracts.demoCollection, pieceId)).toBe(borrower.address.toLowerCase());
  });
});
