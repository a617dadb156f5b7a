// Prints the JavaScript a first visit to the landing page downloads, in gzip kB, beside the whole build.
// First load = the entry chunk, its static imports (modulepreloaded by index.html), the route-preload script
// index.html loads first, and the chunks the "/" route's lazy() imports with their static imports (which that
// script preloads). Measured from Vite's manifest, not asserted.
// `--no-build` reads an existing app/dist instead of building.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import { CRITICAL_ROUTES } from "#app/build/criticalRoutes";

const GOAL_KB = 200;
const root = resolve(import.meta.dirname, "..");
const appDir = join(root, "app");
const dist = join(appDir, "dist");
const manifestPath = join(dist, ".vite", "manifest.json");
// What routes.tsx's "/" route lazy-loads before it paints, from the table the build preloads by. (The
// contact section loads when a visitor scrolls near it and is counted with the rest of the build.)
const LANDING_ROUTE_MODULES = CRITICAL_ROUTES["/"];

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, Chunk>;

if (!process.argv.includes("--no-build")) {
  await build({ configFile: join(appDir, "vite.config.ts"), logLevel: "warn", build: { manifest: true } });
}
if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: build the app with build.manifest enabled.`);
const manifest: Manifest = JSON.parse(readFileSync(manifestPath, "utf8"));

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error("The manifest has no entry chunk.");
for (const key of LANDING_ROUTE_MODULES) if (!manifest[key]) throw new Error(`${key} is not a chunk of its own any more: update app/build/criticalRoutes.ts.`);

/** A chunk and everything it imports statically, as file names. */
function closure(keys: string[], into = new Set<string>()): Set<string> {
  for (const key of keys) {
    const chunk = manifest[key];
    if (into.has(chunk.file)) continue;
    into.add(chunk.file);
    closure(chunk.imports ?? [], into);
  }
  return into;
}

const gzipCache = new Map<string, number>();
function gzipBytes(file: string): number {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
  return gzipCache.get(file)!;
}
const kB = (bytes: number) => (bytes / 1000).toFixed(1);
const sum = (files: Iterable<string>) => [...files].reduce((total, file) => total + gzipBytes(file), 0);

const shell = closure([entryKey]);
// Not a module of the graph, so not in the manifest: index.html names it.
const routePreloadScript = readFileSync(join(dist, "index.html"), "utf8").match(/src="\/(assets\/route-preload-[^"]+\.js)"/)?.[1];
if (routePreloadScript) shell.add(routePreloadScript);
const landing = closure(LANDING_ROUTE_MODULES, new Set(shell));
const routeOnly = [...landing].filter((file) => !shell.has(file));
const allJs = readdirSync(join(dist, "assets"))
  .filter((name) => name.endsWith(".js"))
  .map((name) => `assets/${name}`);
const css = new Set([...shell, ...landing].flatMap((file) => Object.values(manifest).find((chunk) => chunk.file === file)?.css ?? []));

const rows: Array<[string, string]> = [
  ["entry, its imports, preload", `${kB(sum(shell))} kB gzip (${shell.size} files)`],
  ["landing route chunks", `${kB(sum(routeOnly))} kB gzip (${routeOnly.length} files)`],
  ["first-load JS, landing", `${kB(sum(landing))} kB gzip`],
  ["first-load CSS, landing", `${kB(sum(css))} kB gzip`],
  ["total JS of the build", `${kB(sum(allJs))} kB gzip (${allJs.length} files)`],
  ["goal, first-load JS", `≤ ${GOAL_KB} kB gzip: ${sum(landing) / 1000 <= GOAL_KB ? "met" : "not met"}`],
];
console.log("\nLanding page, first visit\n");
for (const file of [...landing].sort((a, b) => gzipBytes(b) - gzipBytes(a))) console.log(`  ${kB(gzipBytes(file)).padStart(7)} kB  ${file}`);
console.log("");
for (const [label, value] of rows) console.log(`  ${label.padEnd(26)} ${value}`);
console.log("");
