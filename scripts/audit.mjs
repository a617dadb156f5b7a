// `npm run audit`: the advisories npm knows for the production dependencies, as a table, exiting 1 on any
// high or critical one. A script to run, not a test: its answer changes with the date, not with our code.
// `--from report.json` formats a saved `npm audit --omit=dev --json` report instead of asking the registry.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const SEVERITIES = ["critical", "high", "moderate", "low", "info"];
/** Exit codes: advisories that must be fixed, and an audit that could not be made at all. */
export const EXIT = { clean: 0, highOrCritical: 1, unreachable: 2 };

/** One row per advisory reaching a package: package, severity, title, dependency path, fix. */
export function advisoryRows(report) {
  const rows = [];
  for (const entry of Object.values(report.vulnerabilities ?? {})) {
    const advisories = entry.via.filter((via) => typeof via === "object");
    const through = entry.via.filter((via) => typeof via === "string");
    const paths = (entry.nodes ?? []).map((node) =>
      node
        .replace(/^node_modules\//, "")
        .split("/node_modules/")
        .join(" > "),
    );
    const fix = fixText(entry.fixAvailable);
    for (const advisory of advisories) {
      rows.push({ package: entry.name, severity: advisory.severity ?? entry.severity, title: advisory.title ?? "", url: advisory.url ?? "", path: paths.join(", "), fix });
    }
    // A package that is only vulnerable through another one: say which, so the table shows the chain.
    if (!advisories.length && through.length) rows.push({ package: entry.name, severity: entry.severity, title: `through ${through.join(", ")}`, url: "", path: paths.join(", "), fix });
  }
  return rows.sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || a.package.localeCompare(b.package));
}

function fixText(fix) {
  if (fix === true) return "yes (npm audit fix)";
  if (!fix) return "no";
  return `${fix.name}@${fix.version}${fix.isSemVerMajor ? " (major)" : ""}`;
}

/** Plain text columns, each as wide as its widest cell (titles cut at 70 characters). */
export function formatTable(rows) {
  const columns = [
    ["Package", (r) => r.package],
    ["Severity", (r) => r.severity],
    ["Title", (r) => (r.title.length > 70 ? `${r.title.slice(0, 69)}…` : r.title)],
    ["Path", (r) => r.path],
    ["Fix available", (r) => r.fix],
  ];
  const cells = rows.map((row) => columns.map(([, get]) => get(row)));
  const widths = columns.map(([name], i) => Math.max(name.length, ...cells.map((line) => line[i].length)));
  const line = (values) =>
    values
      .map((value, i) => value.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(columns.map(([name]) => name)), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

/** What to print and the exit code, from npm's JSON answer (a report, or an error when the registry refused). */
export function summarize(report) {
  if (!report || typeof report.vulnerabilities !== "object") {
    const why = report?.message ?? report?.error?.summary ?? report?.error?.detail ?? "no report";
    return {
      text: `npm audit could not get advisories from the registry: ${why}\nNothing was checked: this is not a clean result. Run it where the registry's audit endpoint is reachable.`,
      code: EXIT.unreachable,
    };
  }
  const rows = advisoryRows(report);
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, rows.filter((r) => r.severity === s).length]));
  const deps = report.metadata?.dependencies?.prod ?? report.metadata?.dependencies?.total;
  const scope = `production dependencies${deps !== undefined ? ` (${deps} packages)` : ""}`;
  if (!rows.length) return { text: `No known advisories in the ${scope}.`, code: EXIT.clean };
  const summary = SEVERITIES.filter((s) => counts[s])
    .map((s) => `${counts[s]} ${s}`)
    .join(", ");
  const failing = counts.critical + counts.high > 0;
  return {
    text: `${formatTable(rows)}\n\n${rows.length} advisories in the ${scope}: ${summary}.${failing ? "\nHigh or critical advisories: fix or replace these packages." : ""}`,
    code: failing ? EXIT.highOrCritical : EXIT.clean,
  };
}

function readReport(args) {
  const from = args.indexOf("--from");
  if (from !== -1) return JSON.parse(readFileSync(args[from + 1], "utf8"));
  // npm exits 1 both when it finds advisories and when it fails, so only its JSON tells which.
  const npm = spawnSync("npm", ["audit", "--omit=dev", "--json"], { encoding: "utf8", maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: "false" } });
  if (npm.error) return { message: `npm could not be run: ${npm.error.message}` };
  try {
    return JSON.parse(npm.stdout);
  } catch {
    return { message: (npm.stderr || npm.stdout || `npm exited ${npm.status}`).trim().split("\n").slice(-3).join(" ") };
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { text, code } = summarize(readReport(process.argv.slice(2)));
  (code === EXIT.unreachable ? console.error : console.log)(text);
  process.exit(code);
}
