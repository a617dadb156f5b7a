import { test, expect } from "@playwright/test";
import { query } from "./db";
import { screenshot, skipSplash, uniqueEmail } from "./helpers";

test("the contact form goes idle, sending, sent and lands in the database", async ({ page }) => {
  await skipSplash(page);
  const email = uniqueEmail("contact");
  await page.goto("/#contact");
  const form = page.getByRole("form", { name: "Contact form" });
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(form.getByText("Name is required")).toBeVisible();

  await form.getByLabel("Name").fill("Grace Hopper");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Subject").selectOption("Loan Application Help");
  await form.getByLabel("Message").fill("How long does approval take?");
  await form.getByRole("button", { name: "Send Message" }).click();

  await expect(page.getByTestId("contact-sent")).toContainText("within 24 hours");
  await expect(page.getByText("Message sent successfully! We'll get back to you soon.")).toBeVisible();
  await screenshot(page, "03-contact-sent");
  // After 3 s the cleared form is back.
  await expect(page.getByRole("form", { name: "Contact form" }).getByLabel("Name")).toHaveValue("", { timeout: 6000 });

  const rows = await query<{ name: string; subject: string; message: string }>("select name, subject, message from contact_messages where email = $1", [email]);
  expect(rows).toEqual([{ name: "Grace Hopper", subject: "Loan Application Help", message: "How long does approval take?" }]);
});
