import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import ts from "typescript";

/** Every project source file (path relative to the root, with "/") and the project files it imports. */
export type ImportGraph = Map<string, string[]>;

const SOURCE = /\.(ts|tsx|mts|mjs)$/;
// Generated, installed or run-time folders: nobody writes imports there.
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "artifacts", "cache", "data", "test-results", "playwright-report", "coverage"]);
const EXTENSIONS = ["", ".ts", ".tsx", ".mts", ".mjs", "/index.ts", "/index.tsx"];

/** Reads the import specifiers of every source file under root with the TypeScript compiler's own scanner. */
export function readImportGraph(root: string): ImportGraph {
  const files = sourceFiles(root, root);
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    // Static imports, re-exports, dynamic import() and require(): every way a module can load another.
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = importedFiles.map((entry) => entry.fileName).filter((specifier) => specifier.startsWith("."));
    graph.set(file, targets.map((specifier) => resolveRelative(file, specifier, known)));
  }
  return graph;
}

/** Every project source file under folder, as a path relative to root with "/". */
export function sourceFiles(root: string, folder: string = root): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder)) {
    if (name.startsWith(".") || SKIPPED_FOLDERS.has(name)) continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...sourceFiles(root, path));
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) found.push(relative(root, path).split(sep).join("/"));
  }
  return found;
}

/** The project file a relative specifier names; a non-source target (JSON, CSS) keeps its own path. */
function resolveRelative(importer: string, specifier: string, known: Set<string>): string {
  const bare = specifier.replace(/[?#].*$/, "");
  const target = normalize(join(dirname(importer), bare)).split(sep).join("/");
  for (const candidate of [...EXTENSIONS.map((extension) => target + extension), target.replace(/\.js$/, ".ts")]) {
    if (known.has(candidate)) return candidate;
  }
  return target;
}

export function projectRoot(): string {
  const root = normalize(join(dirname(new URL(import.meta.url).pathname), "..", ".."));
  if (!existsSync(join(root, "package.json"))) throw new Error(`no package.json at ${root}`);
  return root;
}
