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
  const aliases = packageImports(root);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const targets = projectSpecifiers(root, file).map((specifier) => (specifier.startsWith("#") ? resolveAlias(specifier, aliases) : resolveRelative(file, specifier, known)));
    graph.set(file, targets);
  }
  return graph;
}

/** The specifiers of a file that name project files: relative ones and package.json "#" subpath imports. */
export function projectSpecifiers(root: string, file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  // Static imports, re-exports, dynamic import() and require(): every way a module can load another.
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.map((entry) => entry.fileName).filter((specifier) => specifier.startsWith(".") || specifier.startsWith("#"));
}

/** package.json "imports": exact keys and "prefix/*" patterns mapped to "./path/*.ts". */
function packageImports(root: string): Map<string, string> {
  const imports: Record<string, string> = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).imports ?? {};
  return new Map(Object.entries(imports).map(([key, target]) => [key, target.replace(/^\.\//, "")]));
}

function resolveAlias(specifier: string, aliases: Map<string, string>): string {
  const exact = aliases.get(specifier);
  if (exact) return exact;
  for (const [key, target] of aliases) {
    if (key.endsWith("*") && specifier.startsWith(key.slice(0, -1))) return target.replace("*", specifier.slice(key.length - 1));
  }
  throw new Error(`${specifier} is not a subpath import of package.json`);
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
  const target = normalize(join(dirname(importer), bare))
    .split(sep)
    .join("/");
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
