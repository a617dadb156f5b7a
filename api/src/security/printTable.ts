// `npm run security:table`: the route × role table measured against a fresh server (private chain, real
// PostgreSQL), printed as Markdown beside the expected statuses; exits 1 when anything differs. The same check
// as routeTable.test.ts, for reading rather than for CI.
import { listRoutes } from "../http/routes";
import { probeRoute } from "./probe";
import { ROLES } from "./requests";
import { ROUTE_TABLE } from "./routeTable";
import { startWorld } from "./world";

const world = await startWorld();
let failed = 0;
try {
  const rows = new Map(ROUTE_TABLE.map((row) => [`${row.method} ${row.path}`, row]));
  const lines = ["| Method | Path | Anonymous | Another borrower | Borrower | Admin | Why |", "| --- | --- | --- | --- | --- | --- | --- |"];
  const routes = listRoutes(world.stack.api.server.app);
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    const row = rows.get(key);
    if (!row) {
      failed++;
      lines.push(`| ${route.method} | \`${route.path}\` | no row: a new route without a security decision | | | | |`);
      continue;
    }
    const probes = await probeRoute(world, route);
    const cells = ROLES.map((role) => {
      const actual = probes.find((p) => p.role === role)!.answer.status;
      if (actual === row[role]) return String(actual);
      failed++;
      return `**${actual}** (expected ${row[role]})`;
    });
    lines.push(`| ${route.method} | \`${route.path}\` | ${cells.join(" | ")} | ${row.why ?? ""} |`);
  }
  const listed = new Set(routes.map((r) => `${r.method} ${r.path}`));
  for (const key of rows.keys()) {
    if (listed.has(key)) continue;
    failed++;
    lines.push(`| ${key} | | row without a route | | | | |`);
  }
  console.log(lines.join("\n"));
  console.log(`\n${routes.length} routes × ${ROLES.length} roles: ${failed ? `${failed} differ` : "all as expected"}.`);
} finally {
  await world.close();
}
process.exit(failed ? 1 : 0);
