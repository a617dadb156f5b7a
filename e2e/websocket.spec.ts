import { test, expect, type Browser, type Page } from "@playwright/test";
import { io, type Socket } from "socket.io-client";
import { newAccount, registerByApi, loginByForm, screenshot, skipSplash } from "./helpers";
import { E2E_ADMIN_INVITE, E2E_BASE_URL } from "./stack";

/** A signed-in user on the spec's WebSocket test page, connected. */
async function connectedTestPage(browser: Browser, tag: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await skipSplash(page);
  const account = newAccount(tag);
  await registerByApi(page, account);
  await loginByForm(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/test/websocket");
  await expect(page.getByTestId("socket-status")).toHaveText("disconnected");
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("socket-status")).toHaveText("connected");
  return page;
}

/** The events the page listed, newest first, as event name and payload. */
async function received(page: Page): Promise<{ event: string; payload: Record<string, unknown> }[]> {
  const items = page.getByTestId("socket-messages").locator("li");
  const rows: { event: string; payload: Record<string, unknown> }[] = [];
  for (const item of await items.all()) {
    rows.push({ event: await item.locator("strong").innerText(), payload: JSON.parse(await item.locator("code").innerText()) });
  }
  return rows;
}
const named = async (page: Page, event: string) => (await received(page)).filter((row) => row.event === event).map((row) => row.payload);

test("the WebSocket test page connects, echoes a test message, answers a ping, and simulations reach the caller only", async ({ browser, request }) => {
  const caller = await connectedTestPage(browser, "socket-caller");
  const other = await connectedTestPage(browser, "socket-other");

  // An admin listening at the same time: a simulated loan request must not reach the admins room either.
  const admin = newAccount("socket-admin");
  const registered = await request.post("/api/auth/register", { data: { ...admin, role: "admin", adminInviteCode: E2E_ADMIN_INVITE } });
  expect(registered.ok(), await registered.text()).toBeTruthy();
  const adminToken = (await registered.json()).data.token as string;
  const adminHeard: string[] = [];
  const adminSocket: Socket = io(E2E_BASE_URL, { path: "/socket.io", auth: { token: adminToken }, transports: ["websocket"], reconnection: false });
  try {
    await new Promise<void>((resolve, reject) => {
      adminSocket.once("connect", () => resolve());
      adminSocket.once("connect_error", reject);
    });
    adminSocket.onAny((event: string) => adminHeard.push(event));

    // The server confirms the connection with the caller's own id.
    await expect(caller.getByTestId("socket-messages")).toContainText("connection:confirmed");
    const [confirmed] = await named(caller, "connection:confirmed");
    expect(confirmed).toMatchObject({ role: "user" });
    expect(String(confirmed.userId)).toMatch(/^[0-9a-f-]{36}$/);

    await caller.getByRole("button", { name: "Send test message" }).click();
    await expect(caller.getByTestId("socket-messages")).toContainText("test:response");
    const [response] = await named(caller, "test:response");
    expect(response).toMatchObject({ message: "Test message received", echo: { message: "Hello from the test page" }, userId: confirmed.userId });

    await caller.getByRole("button", { name: "Ping" }).click();
    await expect(caller.getByTestId("socket-messages")).toContainText("pong");
    const [pong] = await named(caller, "pong");
    expect(Number.isNaN(Date.parse(String(pong.timestamp)))).toBe(false);

    await caller.getByRole("button", { name: "Simulate loan approval" }).click();
    await caller.getByRole("button", { name: "Simulate loan request" }).click();
    await expect(caller.getByTestId("socket-messages")).toContainText("admin:notification");
    expect(await named(caller, "loan:status")).toEqual([{ status: "approved", amount: "5000", rejectionReason: null, simulated: true }]);
    expect(await named(caller, "loan:new")).toEqual([{ status: "pending", amount: "5000", simulated: true }]);
    await screenshot(caller, "websocket-test-page");

    // The other user's page and the admin heard none of it: a ping of their own proves their connections are live.
    await other.getByRole("button", { name: "Ping" }).click();
    await expect(other.getByTestId("socket-messages")).toContainText("pong");
    expect((await received(other)).map((row) => row.event).sort()).toEqual(["connection:confirmed", "pong"]);
    const adminPong = await adminSocket.timeout(5000).emitWithAck("ping");
    expect(adminPong).toHaveProperty("timestamp");
    expect(adminHeard.filter((event) => ["loan:new", "admin:notification", "loan:status"].includes(event))).toEqual([]);

    // Disconnect is the page's own control.
    await caller.getByRole("button", { name: "Disconnect" }).click();
    await expect(caller.getByTestId("socket-status")).toHaveText("disconnected");
  } finally {
    adminSocket.close();
    await caller.context().close();
    await other.context().close();
  }
});
