import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { periodBounds, STATEMENT_MESSAGES, statementPeriodQuery } from "./statements";

const firstMessage = (input: unknown) => {
  const result = statementPeriodQuery.safeParse(input);
  return result.success ? null : result.error.issues[0].message;
};

describe("statementPeriodQuery: a period of whole UTC days", () => {
  it("accepts a period and bounds it from the start of `from` to the end of `to`", () => {
    const period = statementPeriodQuery.parse({ from: "2025-01-01", to: "2025-01-31" });
    assert.deepEqual(periodBounds(period), { start: BigInt(Date.UTC(2025, 0, 1) / 1000), end: BigInt(Date.UTC(2025, 1, 1) / 1000) });
    assert.equal(firstMessage({ from: "2025-03-04", to: "2025-03-04" }), null, "one day is a period");
  });

  it("refuses what is not a calendar date, with the message a person reads", () => {
    assert.equal(firstMessage({ from: "2025-02-30", to: "2025-03-01" }), STATEMENT_MESSAGES.date);
    assert.equal(firstMessage({ from: "01/02/2025", to: "2025-03-01" }), STATEMENT_MESSAGES.date);
    assert.equal(firstMessage({ to: "2025-03-01" }), STATEMENT_MESSAGES.date);
  });

  it("refuses an end before the start, and a period over ten years", () => {
    assert.equal(firstMessage({ from: "2025-03-02", to: "2025-03-01" }), STATEMENT_MESSAGES.order);
    assert.equal(firstMessage({ from: "2000-01-01", to: "2025-01-01" }), STATEMENT_MESSAGES.span);
  });
});
