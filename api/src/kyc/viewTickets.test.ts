import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createMemoryStore } from "../kv/memory";
import { createViewTickets, VIEW_TICKET_TTL_MS } from "./viewTickets";

const DOCUMENT = "0b6f3c1e-8a3f-4c1d-9a57-2f1e5d0c9b11";
const OTHER_DOCUMENT = "5d2a9e47-1c3b-4f6e-8d2a-7b9c0e1f2a33";
const USER = "9e1d2c3b-4a5f-4e6d-8c7b-1a2b3c4d5e6f";

describe("document view tickets", () => {
  test("open the one document they were issued for, to the user they were issued to, for five minutes and no longer", async () => {
    let clock = 1_800_000_000_000;
    const kv = createMemoryStore("t:", () => clock);
    const tickets = createViewTickets(kv);
    const ticket = await tickets.issue(DOCUMENT, USER);
    assert.match(ticket, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(VIEW_TICKET_TTL_MS, 5 * 60_000);
    assert.equal(await tickets.userFor(ticket, DOCUMENT), USER);
    assert.equal(await tickets.userFor(ticket, OTHER_DOCUMENT), null, "another document");
    clock += 5 * 60_000 - 1;
    assert.equal(await tickets.userFor(ticket, DOCUMENT), USER, "still alive a millisecond before five minutes");
    clock += 1;
    assert.equal(await tickets.userFor(ticket, DOCUMENT), null, "dead at five minutes");
    await kv.close();
  });

  test("are new each time, and nothing that is not a ticket opens anything", async () => {
    const kv = createMemoryStore("t:");
    const tickets = createViewTickets(kv);
    const first = await tickets.issue(DOCUMENT, USER);
    const second = await tickets.issue(DOCUMENT, USER);
    assert.notEqual(first, second);
    for (const forged of [undefined, null, 42, ["x"], "", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", `${first}x`, first.slice(1), [first]]) {
      assert.equal(await tickets.userFor(forged, DOCUMENT), null, String(forged));
    }
    await kv.close();
  });
});
