import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { singleFlight } from "./singleFlight";

describe("singleFlight", () => {
  it("never answers a caller from a read that began before it arrived, and shares the next read among a burst", async () => {
    let value = 0;
    let reads = 0;
    const release: (() => void)[] = [];
    const read = singleFlight(async (_key: string) => {
      reads += 1;
      const seen = value;
      await new Promise<void>((resolve) => release.push(resolve));
      return seen;
    });
    const first = read("k");
    value = 1; // changes after the first read began
    const burst = [read("k"), read("k"), read("k")];
    release.shift()!();
    assert.equal(await first, 0);
    await new Promise((resolve) => setImmediate(resolve));
    release.shift()!();
    assert.deepEqual(await Promise.all(burst), [1, 1, 1]);
    assert.equal(reads, 2);
  });

  it("keeps keys apart and recovers after a failed read", async () => {
    let fail = true;
    const read = singleFlight(async (key: string) => {
      if (fail) throw new Error("down");
      return key.toUpperCase();
    });
    await assert.rejects(read("a"), /down/);
    fail = false;
    assert.deepEqual(await Promise.all([read("a"), read("b")]), ["A", "B"]);
  });
});
