import { test, expect } from "@playwright/test";
import { installTestWallet } from "./testWallet";
import { loginByForm, newAccount, registerByApi, screenshot, skipSplash, holdRequests } from "./helpers";
import { query } from "./db";

test.beforeEach(async ({ page }) => skipSplash(page));

test("a new wallet signs in with a SIWE signature and becomes a wallet user", async ({ page }) => {
  const wallet = await installTestWallet(page);
  await page.goto("/login");
  const block = page.getByTestId("wallet-block");
  await expect(block.getByText("Sign a message to verify ownership")).toBeVisible();
  await expect(page.getByTestId("wallet-required")).toHaveCount(0);
  await block.getByRole("button", { name: "Connect Wallet" }).click();
  await page.getByTestId("rk-wallet-option-injected").click();
  const short = `${wallet.address.slice(0, 6)}...${wallet.address.slice(-4)}`;
  await expect(page.getByTestId("connected-address")).toContainText(short);
  await block.getByRole("button", { name: "Sign In with Wallet" }).click();
  // The success toast lives 2 s (spec): watched for from the click, not after the dashboard's load, it cannot pass unseen.
  await expect(page.getByText(`Welcome back! Wallet connected ${short}`)).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("wallet-badge")).toBeVisible();
  await expect(page.getByTestId("wallet-chip")).toContainText(short.toLowerCase(), { ignoreCase: true });

  const rows = await query<{ is_wallet_user: boolean }>("select is_wallet_user from users where lower(wallet_address) = lower($1)", [wallet.address]);
  expect(rows).toEqual([{ is_wallet_user: true }]);

  // The dashboard's Disconnect signs the wallet user out.
  await page.getByTestId("wallet-chip").getByRole("button", { name: "Disconnect" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Wallet disconnected successfully")).toBeVisible();
});

test("a press on Connect Wallet made while the network configuration arrives opens the modal: the local dev wallet's picker appears below the button, which stays put", async ({ page }) => {
  await installTestWallet(page);
  // The configuration decides whether the local dev wallet's picker is drawn; it is held until the press has begun.
  const release = await holdRequests(page, "**/api/config");
  await page.goto("/login");
  const block = page.getByTestId("wallet-block");
  const button = block.getByRole("button", { name: "Connect Wallet" });
  await expect(button).toBeVisible();
  await expect(block.getByTestId("dev-wallet-picker")).toHaveCount(0);
  await button.scrollIntoViewIfNeeded();
  const box = (await button.boundingBox())!;
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  // A press is a mouse down and a mouse up; under load the configuration arrived between the two (the loaded run's
  // trace: no picker when the click's point was taken, the picker above the button once it was done, the button
  // focused and no modal). The picker then pushed the button down, the up landed on the picker and no click fired.
  await page.mouse.move(point.x, point.y);
  await page.mouse.down();
  release();
  await expect(block.getByTestId("dev-wallet-picker")).toBeVisible();
  const under = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.textContent, point);
  expect(under, "what lies under the press once the picker is drawn").toBe("Connect Wallet");
  await page.mouse.up();
  await page.getByTestId("rk-wallet-option-injected").click();
  await expect(page.getByTestId("connected-address")).toBeVisible();
});

test("a signed-in account links a wallet from the profile and disconnects it after confirming", async ({ page }) => {
  const wallet = await installTestWallet(page);
  const account = newAccount("linker");
  await registerByApi(page, account);
  await loginByForm(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/profile");
  const card = page.getByTestId("wallet-card");
  await card.getByRole("button", { name: "Connect Wallet" }).click();
  await page.getByTestId("rk-wallet-option-injected").click();
  await expect(page.getByText("Wallet connected successfully!")).toBeVisible();
  await expect(card.getByTestId("linked-wallet")).toHaveText(wallet.address, { ignoreCase: true });
  await expect(card.getByRole("link", { name: "View on explorer" })).toHaveAttribute("href", new RegExp(`/explorer/address/${wallet.address}`, "i"));
  await screenshot(page, "09-profile-wallet");

  const linked = await query<{ wallet_address: string }>("select wallet_address from users where email = $1", [account.email]);
  expect(linked[0].wallet_address.toLowerCase()).toBe(wallet.address.toLowerCase());

  // Unlinking the verified wallet and disconnecting this browser's wallet are two named actions.
  await expect(card.getByTestId("browser-wallet")).toContainText(`${wallet.address.slice(0, 6)}...`);
  await card.getByRole("button", { name: "Unlink wallet" }).click();
  await card.getByRole("button", { name: "Yes, unlink" }).click();
  await expect(page.getByText("Wallet unlinked from your account")).toBeVisible();
  // The extension stays connected, so the card offers to link that wallet again.
  await expect(card.getByRole("button", { name: /^(Connect Wallet|Link 0x)/ })).toBeVisible();
  const cleared = await query<{ wallet_address: string | null }>("select wallet_address from users where email = $1", [account.email]);
  expect(cleared[0].wallet_address ?? "").toBe("");
});

test("without a wallet extension the login shows the notice and the local dev wallet still signs in", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByTestId("wallet-required")).toContainText("MetaMask is not installed");
  await screenshot(page, "10-login-no-wallet");
  await expect(page.getByTestId("dev-wallet-picker")).toBeVisible();
  // The notice comes when the search for an extension gives up (300 ms): below the button and the picker, so it
  // cannot push the button from under a press already on its way.
  const connect = await page.getByTestId("wallet-block").getByRole("button", { name: "Connect Wallet" }).boundingBox();
  const picker = await page.getByTestId("dev-wallet-picker").boundingBox();
  const notice = await page.getByTestId("wallet-required").boundingBox();
  expect(notice!.y, "the notice is drawn below the button").toBeGreaterThanOrEqual(connect!.y + connect!.height);
  expect(notice!.y, "and below the picker it points to").toBeGreaterThanOrEqual(picker!.y + picker!.height);
  await page.getByLabel("Local dev wallet account").selectOption("fresh");
  await page.getByTestId("wallet-block").getByRole("button", { name: "Connect Wallet" }).click();
  await page.getByTestId("rk-wallet-option-loanmint-dev").click();
  await expect(page.getByTestId("connected-address")).toBeVisible();
  await page.getByTestId("wallet-block").getByRole("button", { name: "Sign In with Wallet" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("wallet-badge")).toBeVisible();
});

test("the login loads the wallet stack only when reached for, keeps the button and its focus, and reconnects a returning wallet at once", async ({ page }) => {
  const walletChunks: string[] = [];
  page.on("request", (request) => {
    if (/\/assets\/WalletRoot-[^/]+\.js$/.test(request.url())) walletChunks.push(request.url());
  });
  await page.goto("/login");
  const block = page.getByTestId("wallet-block");
  const button = block.getByRole("button", { name: "Connect Wallet" });
  await expect(page.getByTestId("dev-wallet-picker")).toBeVisible();
  await expect(button).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(walletChunks, "RainbowKit and wagmi load on intent, not with the page").toEqual([]);

  // The picker names a demo account without the stack; it must be the address that then connects.
  await page.getByLabel("Local dev wallet account").selectOption("demoInvestor");
  const named = await page.getByTestId("dev-wallet-address").textContent();
  expect(named).toBe("0x15d3...6A65");

  // A keyboard user: focus loads the stack, the same button keeps focus and opens the modal. While it loads the
  // block draws nothing new: no spinner to push the page down.
  type Watched = Window & { spinnerDrawn?: Promise<boolean> };
  await block.evaluate((element) => {
    (window as Watched).spinnerDrawn = new Promise<boolean>((resolve) => {
      const observer = new MutationObserver(() => {
        const drawn = element.querySelector(".spinner") !== null;
        if (drawn || element.querySelector("[data-rk]")) {
          observer.disconnect();
          resolve(drawn);
        }
      });
      observer.observe(element, { subtree: true, childList: true });
    });
  });
  const loaded = page.waitForResponse(/\/assets\/WalletRoot-[^/]+\.js$/);
  await button.focus();
  await loaded;
  await expect(button).toBeFocused();
  // Once the stack is in (RainbowKit's theme root sits in the block) the button holds still until pressed. It once
  // flickered "Connecting Wallet..." (disabled) without end, wagmi's provider reconnecting on every render of a block
  // that re-rendered on each state reported, and under load the Enter below landed on it disabled and was lost.
  await expect(block.locator("[data-rk]")).toBeAttached();
  expect(await page.evaluate(() => (window as Watched).spinnerDrawn), "a spinner drawn in the block while the stack loaded").toBe(false);
  const changes = await block.getByRole("button", { name: /wallet/i }).evaluate(
    (element) =>
      new Promise<number>((resolve) => {
        let count = 0;
        const observer = new MutationObserver((records) => (count += records.length));
        observer.observe(element, { subtree: true, childList: true, characterData: true, attributes: true });
        setTimeout(() => {
          observer.disconnect();
          resolve(count);
        }, 500);
      }),
  );
  expect(changes, "the button's changes in the half second after the wallet stack mounted").toBe(0);
  await page.keyboard.press("Enter");
  await page.getByTestId("rk-wallet-option-loanmint-dev").click();
  await expect(page.getByTestId("connected-address")).toContainText(named!);

  // A returning visitor with a stored connection gets the stack at once, to reconnect.
  walletChunks.length = 0;
  await page.reload();
  await expect(page.getByTestId("connected-address")).toContainText(named!);
  expect(walletChunks.length).toBe(1);
});

test("the dev wallet starts on the user's verified demo wallet, and a wrong account is fixed where the notice shows", async ({ page }) => {
  await loginByForm(page, { email: "investor@loanmint.local", password: "Investor123!" });
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/nft-transfer");
  const picker = page.getByLabel("Local dev wallet account");
  // Never chosen in this browser: the verified demo wallet, not a new random key.
  await expect(picker).toHaveValue("demoInvestor");
  await picker.selectOption("demoBorrower");
  await page.getByTestId("vault-form").getByRole("button", { name: "Connect Wallet" }).click();
  await page.getByTestId("rk-wallet-option-loanmint-dev").click();
  const notice = page.getByTestId("wallet-bar");
  await expect(notice).toContainText("but your verified wallet is 0x15d3...6a65", { ignoreCase: true });
  await screenshot(page, "wallet-mismatch");
  await notice.getByRole("button", { name: "Disconnect wallet" }).click();
  await expect(page.getByTestId("vault-form").getByRole("button", { name: "Connect Wallet" })).toBeVisible();
  await page.getByTestId("vault-form").getByRole("button", { name: "Connect Wallet" }).click();
  await page.getByTestId("rk-wallet-option-loanmint-dev").click();
  await notice.getByRole("button", { name: /^Switch to 0x15d3/i }).click();
  await expect(notice).toContainText("Signing as 0x15d3", { ignoreCase: true });
});
