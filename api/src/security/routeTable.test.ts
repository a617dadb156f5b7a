import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { listRoutes, type RouteInfo } from "../http/routes";
import { probeRoute, type Probe } from "./probe";
import { privateValues, showsValue } from "./privateValues";
import { RECIPES } from "./requests";
import { ROUTE_TABLE } from "./routeTable";
import { startWorld, type World } from "./world";

const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/**
 * The route × role table against the real server: real Postgres, a private anvil with the contracts and the
 * indexer, so routes that read or move notes answer from real chain state.
 */
describe("the route table", () => {
  let world: World;
  let routes: RouteInfo[];
  const probes: Probe[] = [];

  before(async () => {
    world = await startWorld();
    routes = listRoutes(world.stack.api.server.app);
    const known = new Set(ROUTE_TABLE.map(key));
    // Rows run in the router's order; a route without a row is reported by its own test, not probed blind.
    for (const route of routes) if (known.has(key(route))) probes.push(...(await probeRoute(world, route)));
  });
  after(async () => {
    await world?.close();
  });

  test("has a row for every route the app answers: a new route needs a security decision first", () => {
    const rows = new Set(ROUTE_TABLE.map(key));
    const missing = routes.filter((route) => !rows.has(key(route))).map(key);
    assert.deepEqual(missing, [], `routes without a row in api/src/security/routeTable.ts:\n${missing.join("\n")}`);
    assert.ok(routes.length >= 60, `only ${routes.length} routes listed`);
  });

  test("has no row for a route that does not exist", () => {
    const listed = new Set(routes.map(key));
    const stale = ROUTE_TABLE.filter((row) => !listed.has(key(row))).map(key);
    assert.deepEqual(stale, []);
    assert.equal(new Set(ROUTE_TABLE.map(key)).size, ROUTE_TABLE.length, "a route appears twice in the table");
  });

  test("gives every role on every route exactly the status its row expects", () => {
    const rows = new Map(ROUTE_TABLE.map((row) => [key(row), row]));
    const wrong = probes
      .filter((probe) => rows.get(key(probe))![probe.role] !== probe.answer.status)
      .map((p) => `${key(p)} as ${p.role}: expected ${rows.get(key(p))![p.role]}, got ${p.answer.status} (${p.answer.body?.message ?? "no message"})`);
    assert.deepEqual(wrong, []);
    assert.equal(probes.length, ROUTE_TABLE.length * 4);
  });

  test("never answers another borrower, or anyone anonymous, with any field of borrower A's records", async () => {
    // Every value of every field of A's rows (profile, KYC, notifications, contact messages, chat, loans and
    // their steps), less what is public by design (api/src/security/privateValues.ts) and what B or the admin
    // have in their own rows too.
    const secrets = await privateValues(world.stack.api.database.db, world.a.id, [world.b.id, world.admin.id]);
    assert.ok(secrets.has(world.a.email.toLowerCase()) && secrets.has(world.notificationId) && secrets.has(world.kycDocumentId));
    assert.ok(secrets.size >= 40, `only ${secrets.size} private values of A found`);
    const leaks = probes
      .filter((p) => p.role === "otherBorrower" || (p.role === "anonymous" && !RECIPES[key(p)]?.anonymousIsA))
      .filter((p) => p.answer.status < 300)
      .flatMap((p) => {
        const body = JSON.stringify(p.answer.body).toLowerCase();
        return [...secrets].filter(([value]) => showsValue(body, value)).map(([value, field]) => `${key(p)} as ${p.role} shows A's ${field} (${value})`);
      });
    assert.deepEqual(leaks, []);
  });

  test("refuses another borrower every path that names one of A's private resources", () => {
    const foreign = probes.filter((p) => p.role === "otherBorrower" && /\{(id|documentId)\}/.test(p.path) && !p.path.startsWith("/api/nfts/"));
    assert.ok(foreign.length >= 15, `only ${foreign.length} foreign-id calls`);
    for (const p of foreign) assert.ok([403, 404].includes(p.answer.status), `${key(p)}: ${p.answer.status}`);
  });
});
