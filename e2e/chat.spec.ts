import { test, expect } from "@playwright/test";
import { query } from "./db";
import { loginByForm, newAccount, registerByApi, screenshot, skipSplash, holdRequests } from "./helpers";

test("the dashboard's chat assistant answers, keeps the history, refuses blanks, reports errors and clears", async ({ page }) => {
  await skipSplash(page);
  const account = newAccount("chat");
  await registerByApi(page, account);
  await loginByForm(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);

  // Closed at first; the panel loads on open with the welcome.
  await expect(page.getByTestId("chat-panel")).toHaveCount(0);
  await page.getByRole("button", { name: "Open chat assistant" }).click();
  const panel = page.getByTestId("chat-panel");
  await expect(panel.getByText("Hi! I'm the LoanMint assistant.", { exact: false })).toBeVisible();
  await expect(page.getByTestId("chat-powered-by")).toHaveText("Powered by LoanMint assistant");

  // Whitespace is never sent.
  const input = page.getByTestId("chat-input");
  await input.fill("   ");
  await input.press("Enter");
  await expect(page.getByTestId("chat-send")).toBeDisabled();
  await expect(panel.locator('[data-sender="user"]')).toHaveCount(0);

  // Shift+Enter makes a new line; Enter sends. While the reply is awaited: typing indicator, no second send.
  const release = await holdRequests(page, "**/api/chatbot/message");
  await input.fill("How long does");
  await input.press("Shift+Enter");
  await input.pressSequentially("KYC review take?");
  await expect(input).toHaveValue("How long does\nKYC review take?");
  await input.press("Enter");
  await expect(page.getByTestId("chat-typing")).toBeVisible();
  await input.fill("A second question");
  await input.press("Enter");
  await expect(page.getByTestId("chat-send")).toBeDisabled();
  await expect(panel.locator('[data-sender="user"]')).toHaveCount(1);
  release();
  await expect(page.getByTestId("chat-typing")).toHaveCount(0);
  const reply = panel.locator('[data-sender="bot"]').last();
  await expect(reply).toContainText("24–48 hours");
  await expect(reply.getByTestId("chat-source")).toHaveText("LoanMint assistant · knowledge base");
  await page.unroute("**/api/chatbot/message");
  await screenshot(page, "chat-answer");

  // The user's own data: a new user has no loans.
  await input.fill("What is the status of my loan?");
  await input.press("Enter");
  await expect(panel.locator('[data-sender="bot"]').last()).toContainText("You have no loan requests yet");
  // The pages an answer names are links into the app.
  await expect(panel.locator('[data-sender="bot"]').last().getByRole("link", { name: "/loans/request" })).toHaveAttribute("href", "/loans/request");

  // The history is the server's: it survives a reload.
  const stored = await query<{ sender: string; content: string }>("select m.sender, m.content from chat_messages m join users u on u.id = m.user_id where u.email = $1 order by m.seq", [
    account.email,
  ]);
  expect(stored.map((m) => m.sender)).toEqual(["user", "bot", "user", "bot"]);
  expect(stored[0].content).toBe("How long does\nKYC review take?");
  await page.reload();
  await page.getByRole("button", { name: "Open chat assistant" }).click();
  await expect(panel.locator('[data-sender="user"]')).toHaveCount(2);

  // A failed reply: the spec's apology in the conversation and a toast.
  await page.route("**/api/chatbot/message", (route) => route.fulfill({ status: 503, contentType: "application/json", body: '{"success":false,"message":"down","data":null}' }));
  await input.fill("Are you there?");
  await input.press("Enter");
  await expect(panel.locator('[data-sender="bot"]').last()).toHaveText(/I'm sorry, I'm having trouble processing your request right now\. Please try again later\./);
  await expect(page.getByText("Failed to get response from chatbot")).toBeVisible();
  await page.unroute("**/api/chatbot/message");

  // Clearing: a failure keeps everything, a success empties the server's history and welcomes again.
  await page.route("**/api/chatbot/clear", (route) => route.fulfill({ status: 503, contentType: "application/json", body: '{"success":false,"message":"down","data":null}' }));
  await page.getByRole("button", { name: "Clear chat history" }).click();
  await expect(page.getByText("Failed to clear chat history")).toBeVisible();
  await page.unroute("**/api/chatbot/clear");
  await page.getByRole("button", { name: "Clear chat history" }).click();
  await expect(page.getByText("Chat history cleared")).toBeVisible();
  await expect(panel.getByText("Hi! I'm the LoanMint assistant.", { exact: false })).toBeVisible();
  expect(await query("select 1 from chat_messages m join users u on u.id = m.user_id where u.email = $1", [account.email])).toEqual([]);

  // The open/close button closes it, and Escape does too.
  await page.getByTestId("chat-toggle").click();
  await expect(page.getByTestId("chat-panel")).toHaveCount(0);
  await page.getByTestId("chat-toggle").click();
  await page.getByTestId("chat-input").press("Escape");
  await expect(page.getByTestId("chat-panel")).toHaveCount(0);
});
