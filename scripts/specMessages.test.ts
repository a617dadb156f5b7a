import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot, sourceFiles } from "./boundaries/importGraph";
import { isTestCode } from "./boundaries/rules";

// Issue 17: each spec validation message is written in exactly one non-test source file, under domain/; every
// other file (the API's answers, the app's forms) imports it. The messages are the *_MESSAGES objects of domain/.
const root = projectRoot();
const MESSAGE_MODULES = [
  "domain/schemas/sharedMessages.ts",
  "domain/schemas/auth.ts",
  "domain/schemas/users.ts",
  "domain/schemas/contact.ts",
  "domain/schemas/kyc.ts",
  "domain/schemas/loans.ts",
  "domain/schemas/admin.ts",
  "domain/schemas/chatbot.ts",
  "domain/marketplaceTerms.ts",
  "domain/wire/order.ts",
  "domain/schemas/statements.ts",
];

async function specMessages(): Promise<Set<string>> {
  const messages = new Set<string>();
  for (const path of MESSAGE_MODULES) {
    const module: Record<string, unknown> = await import(join(root, path));
    for (const [name, value] of Object.entries(module)) {
      if (!name.endsWith("_MESSAGES") || typeof value !== "object" || value === null) continue;
      for (const text of Object.values(value)) if (typeof text === "string") messages.add(text);
    }
  }
  return messages;
}

/** The message as written in code: the whole text, not the start of a longer one ("…email" in "…email address"). */
function writtenIn(text: string, message: string): boolean {
  // A message with quotes in it is written with them escaped ("Ask: \"When is my next payment?\"").
  return [message, JSON.stringify(message).slice(1, -1)].some((written) => {
    const escaped = written.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(?<![\\w])${escaped}(?!\\w| \\w)`).test(text);
  });
}

test("every domain/ module that holds messages is read, and they hold the spec's", async () => {
  const messages = await specMessages();
  for (const message of ["Please enter a valid wallet address", "Funding amount cannot exceed the requested amount", "Please provide a rejection reason"]) {
    assert.ok(messages.has(message), `${message} is not among the messages read`);
  }
  const found = sourceFiles(root, join(root, "domain")).filter((path) => /_MESSAGES = \{/.test(readFileSync(join(root, path), "utf8")));
  assert.deepEqual(found.sort(), [...MESSAGE_MODULES].sort(), "a module with *_MESSAGES is missing from MESSAGE_MODULES");
});

test("each spec message is written in exactly one non-test source file, under domain/", async () => {
  const texts = sourceFiles(root)
    .filter((path) => !isTestCode(path))
    .map((path) => ({ path, text: readFileSync(join(root, path), "utf8") }));
  const copies: string[] = [];
  for (const message of await specMessages()) {
    const where = texts.filter(({ text }) => writtenIn(text, message)).map(({ path }) => path);
    if (where.length !== 1 || !where[0].startsWith("domain/")) copies.push(`"${message}": ${where.join(", ") || "nowhere"}`);
  }
  assert.deepEqual(copies, []);
});

test("a message counts where it is written whole, not inside a longer one", () => {
  assert.ok(writtenIn(`min(1, "Please enter a valid email")`, "Please enter a valid email"));
  assert.ok(writtenIn("<h3>No loans found</h3>", "No loans found"));
  assert.ok(!writtenIn(`"Please enter a valid email address"`, "Please enter a valid email"));
});
