import { test } from "node:test";
import assert from "node:assert/strict";
import { createLogger } from "./logger";

test("logs never carry bearer tokens, cookies or passwords", () => {
  const lines: string[] = [];
  const logger = createLogger("info", { write: (line: string) => void lines.push(line) });
  logger.info({ req: { headers: { authorization: "Bearer secret.jwt.token", cookie: "sid=1", host: "x" } }, body: { password: "hunter22" } }, "request");
  const text = lines.join("");
  assert.ok(!text.includes("secret.jwt.token"));
  assert.ok(!text.includes("sid=1"));
  assert.ok(!text.includes("hunter22"));
  assert.match(text, /"host":"x"/);
});
