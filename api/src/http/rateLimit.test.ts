import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_RATE_LIMITS, scaleRateLimits } from "./rateLimit";

test("scaling multiplies every allowance, keeps the windows, and never drops below one request", () => {
  const scaled = scaleRateLimits(DEFAULT_RATE_LIMITS, 50);
  assert.equal(scaled.register.max, DEFAULT_RATE_LIMITS.register.max * 50);
  assert.equal(scaled.register.windowMs, DEFAULT_RATE_LIMITS.register.windowMs);
  assert.equal(scaleRateLimits(DEFAULT_RATE_LIMITS, 0.0001).faucet.max, 1);
  assert.equal(scaleRateLimits(DEFAULT_RATE_LIMITS, 1), DEFAULT_RATE_LIMITS);
});
