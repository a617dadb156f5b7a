import type { ImportGraph } from "./importGraph";

/**
 * Who may import whom (docs/architecture.md), as data. A part is a file's top folder; files at the root (tool configs)
 * are "root". Test code is judged by looser rules (docs/decisions.md "Import boundaries").
 */
const PARTS = ["domain", "db", "api", "indexer", "app", "contracts", "devchain", "scripts", "bench", "e2e", "testing"] as const;
export type Part = (typeof PARTS)[number] | "root";

const EVERY_PART: readonly Part[] = [...PARTS, "root"];
/** Nothing imports scripts/ or bench/ but scripts/ and bench/ themselves. */
const LEAVES: readonly Part[] = ["scripts", "bench"];
const ANY_BUT_LEAVES = EVERY_PART.filter((part) => !LEAVES.includes(part));

const PRODUCTION_MAY_IMPORT: Record<Part, readonly Part[]> = {
  domain: ["domain"],
  db: ["db", "domain"],
  // The app talks to the API over HTTP and socket.io, and to the chain through wagmi.
  app: ["app", "domain"],
  // The API and the indexer share domain/ and db/, never each other's internals. Their test-only helpers
  // (api/src/testing/, api/src/security/) may use the test-support folder; the product never loads them.
  api: ["api", "domain", "db", "testing"],
  indexer: ["indexer", "domain", "db", "testing"],
  // contracts/' TypeScript helpers (deploy, coverage) as they are.
  contracts: ["contracts", "domain", "devchain"],
  devchain: ["devchain", "domain"],
  scripts: EVERY_PART,
  bench: [...ANY_BUT_LEAVES, "bench"],
  e2e: ANY_BUT_LEAVES,
  testing: ANY_BUT_LEAVES,
  root: ANY_BUT_LEAVES,
};

/** What the product runs: `npm start`, `npm run indexer|reindex|deploy|reset|cluster`, and the browser's bundle. */
export const ENTRY_POINTS = ["scripts/start.ts", "scripts/indexer.ts", "scripts/reindex.ts", "scripts/deploy.ts", "scripts/reset.ts", "scripts/cluster.ts", "app/src/main.tsx"];

export function partOf(path: string): Part {
  const top = path.split("/")[0];
  return (PARTS as readonly string[]).includes(top) ? (top as Part) : "root";
}

/** Test files, and the folders that hold only test tooling: the shared testing/, contracts/test/, e2e/. */
export function isTestCode(path: string): boolean {
  return /\.(test|spec)\.(ts|tsx|mts)$/.test(path) || /^(testing|e2e|contracts\/test)\//.test(path);
}

function featureOf(path: string): string | undefined {
  return /^app\/src\/features\/([^/]+)\//.exec(path)?.[1];
}

/**
 * Known breaks not yet undone, each one import by name, so no other import of the kind passes. bench:cluster
 * measures `npm run cluster`'s own topology in-process (it reads the proxy's routing), and that code still
 * lives in scripts/.
 */
const KNOWN_BREAKS = new Set(["bench/cluster.ts -> scripts/cluster.ts"]);

/** Why importer may not import target, or undefined when it may. */
export function forbiddenImport(importer: string, target: string): string | undefined {
  if (KNOWN_BREAKS.has(`${importer} -> ${target}`)) return undefined;
  const from = partOf(importer);
  const to = partOf(target);
  const allowed = isTestCode(importer) ? [...ANY_BUT_LEAVES, from] : PRODUCTION_MAY_IMPORT[from];
  if (!allowed.includes(to)) return `${from}/ may not import ${to}/`;
  const ownFeature = featureOf(importer);
  const otherFeature = featureOf(target);
  if (ownFeature && otherFeature && ownFeature !== otherFeature) return `feature ${ownFeature} may not import feature ${otherFeature}`;
  return undefined;
}

/**
 * A relative specifier that climbs out of its own part ("../../../domain/money") where a package.json
 * subpath import ("#domain/money") says the same thing in one word.
 */
export function crossPartRelative(importer: string, specifier: string, target: string): string | undefined {
  const [from, to] = [partOf(importer), partOf(target)];
  // Root files (tool configs) sit beside every part: "./e2e/stack" climbs nowhere.
  if (!specifier.startsWith(".") || from === to || from === "root" || to === "root") return undefined;
  return `${importer} imports ${specifier}: use the #${to}/ subpath import`;
}

/** Every import across a forbidden line, as "importer -> target: why". */
export function boundaryViolations(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const [importer, targets] of graph) {
    for (const target of targets) {
      const why = forbiddenImport(importer, target);
      if (why) found.push(`${importer} -> ${target}: ${why}`);
    }
  }
  return found;
}

/** Test code that the product would load, reached from an entry point, as "path (via chain)". */
export function testCodeInProduct(graph: ImportGraph, entryPoints: readonly string[]): string[] {
  const via = new Map<string, string>(entryPoints.map((entry) => [entry, entry]));
  const queue = [...entryPoints];
  const found: string[] = [];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of graph.get(file) ?? []) {
      if (via.has(target)) continue;
      via.set(target, `${via.get(file)} -> ${target}`);
      if (isTestCode(target)) found.push(via.get(target)!);
      else queue.push(target);
    }
  }
  return found;
}

/** Import cycles among non-test source files (Tarjan's strongly connected components), each as its files. */
export function importCycles(graph: ImportGraph): string[][] {
  const production = (file: string) => graph.has(file) && !isTestCode(file);
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    lowest.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of (graph.get(file) ?? []).filter(production)) {
      if (!order.has(target)) {
        visit(target);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(target)!));
      } else if (onStack.has(target)) lowest.set(file, Math.min(lowest.get(file)!, order.get(target)!));
    }
    if (lowest.get(file) !== order.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (production(file) && !order.has(file)) visit(file);
  return cycles;
}
