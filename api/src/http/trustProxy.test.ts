import { test } from "node:test";
import assert from "node:assert/strict";
import { startTestApi } from "../testing/harness";

const attempt = { email: "someone@example.com", password: "wrong-password" };
const TIGHT = { login: { max: 2, windowMs: 60_000 } };

async function loginsFrom(api: Awaited<ReturnType<typeof startTestApi>>, forwardedFor: string): Promise<number[]> {
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await api.call("POST", "/auth/login", { body: attempt, headers: { "x-forwarded-for": forwardedFor } })).status);
  return statuses;
}

test("without TRUST_PROXY a client cannot escape a rate limit by inventing X-Forwarded-For", async () => {
  const api = await startTestApi({ rateLimits: TIGHT });
  try {
    assert.deepEqual(await loginsFrom(api, "203.0.113.1"), [401, 401, 429]);
    assert.deepEqual(await loginsFrom(api, "203.0.113.2"), [429, 429, 429]);
  } finally {
    await api.close();
  }
});

test("with TRUST_PROXY=loopback each client behind our proxy has its own rate limit", async () => {
  const api = await startTestApi({ rateLimits: TIGHT, env: { TRUST_PROXY: "loopback" } });
  try {
    assert.deepEqual(await loginsFrom(api, "203.0.113.1"), [401, 401, 429]);
    assert.deepEqual(await loginsFrom(api, "203.0.113.2"), [401, 401, 429]);
  } finally {
    await api.close();
  }
});
