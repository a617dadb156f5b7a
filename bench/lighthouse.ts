// Lighthouse (performance + accessibility) for the landing, login and marketplace pages of a private stack,
// in Debian's Chromium. One tab is kept for every run so its storage survives: the once-per-tab splash is
// shown once first, as a visitor sees it, and Lighthouse runs with `disableStorageReset` so it measures the
// pages and not the splash. The HTTP cache is cleared before each run, so every page loads cold.
// Default Lighthouse settings (mobile, simulated slow 4G); `--desktop` uses the desktop preset.
// `--url http://host:port` measures a stack that is already running (e.g. `npm start`) instead.
// `--runs N` audits each page N times (Lighthouse's own advice on a noisy machine) and judges the median;
// every run is printed with the host's benchmark index, so a slow figure can be told from a busy machine.
// `--save DIR` keeps each run's full Lighthouse JSON report there.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import lighthouse, { desktopConfig, type Flags } from "lighthouse";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { startStack } from "./lib/stack";

const GOAL = 90;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/lib/chromium/chromium";
const desktop = process.argv.includes("--desktop");
const urlFlag = process.argv.indexOf("--url");
const givenUrl = urlFlag >= 0 ? process.argv[urlFlag + 1]?.replace(/\/$/, "") : undefined;
const runsFlag = process.argv.indexOf("--runs");
const RUNS = runsFlag >= 0 ? Math.max(1, Number(process.argv[runsFlag + 1]) || 1) : 1;
const saveFlag = process.argv.indexOf("--save");
const saveDir = saveFlag >= 0 ? resolve(process.argv[saveFlag + 1] ?? "lighthouse-reports") : undefined;

async function signUpAndIn(page: Page, url: string): Promise<void> {
  const email = `lighthouse-${Date.now().toString(36)}@bench.loanmint.test`;
  const account = { firstName: "Grace", lastName: "Hopper", email, password: "secret123", role: "user" };
  const res = await fetch(`${url}/api/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(account) });
  if (!res.ok) throw new Error(`register: ${res.status} ${await res.text()}`);
  await page.goto(`${url}/login`, { waitUntil: "networkidle0" });
  await page.type('input[type="email"]', email);
  await page.type('input[type="password"]', account.password);
  await Promise.all([page.waitForFunction(() => location.pathname === "/dashboard", { timeout: 15_000 }), page.click('button[type="submit"]')]);
}

async function audit(page: Page, url: string, name: string, run: number) {
  const session = await page.createCDPSession();
  await session.send("Network.clearBrowserCache");
  await session.detach();
  const flags: Flags = { disableStorageReset: true, onlyCategories: ["performance", "accessibility"], logLevel: "error", output: "json" };
  const config = desktop ? { ...desktopConfig, settings: { ...desktopConfig.settings, onlyCategories: flags.onlyCategories } } : undefined;
  const result = await lighthouse(url, flags, config, page);
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  if (saveDir) {
    mkdirSync(saveDir, { recursive: true });
    writeFileSync(join(saveDir, `${name}-${run}.json`), JSON.stringify(result.lhr));
  }
  const { categories, audits } = result.lhr;
  const score = (key: string) => Math.round((categories[key]?.score ?? 0) * 100);
  const failing = Object.values(audits)
    .filter((item) => item.score !== null && item.score < 0.9 && item.scoreDisplayMode !== "informative" && item.scoreDisplayMode !== "notApplicable" && item.scoreDisplayMode !== "manual")
    .map((item) => `${item.id}${item.displayValue ? ` (${item.displayValue})` : ""}`);
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    lcp: audits["largest-contentful-paint"]?.displayValue ?? "",
    cls: audits["cumulative-layout-shift"]?.displayValue ?? "",
    tbt: audits["total-blocking-time"]?.displayValue ?? "",
    // Lighthouse's measure of the host's speed while it ran: lower means a busier or slower machine.
    benchmarkIndex: Math.round(result.lhr.environment.benchmarkIndex),
    failing,
    finalUrl: result.lhr.finalDisplayedUrl,
    error: result.lhr.runtimeError?.message ?? audits["largest-contentful-paint"]?.errorMessage ?? "",
  };
}

const stack = givenUrl ? { url: givenUrl, stop: async () => {} } : await startStack();
let browser: Browser | undefined;
try {
  // Launched inside the try: a browser that cannot start must not leave the private stack running.
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage();
  // The splash, once, as every visitor sees it on a new tab; sessionStorage then remembers it for this tab.
  await page.goto(stack.url, { waitUntil: "load" });
  await page.waitForFunction(() => sessionStorage.getItem("splash-seen") === "1", { timeout: 10_000 });

  type Row = { page: string; run: number } & Awaited<ReturnType<typeof audit>>;
  const rows: Row[] = [];
  const measure = async (name: string, url: string) => {
    for (let run = 1; run <= RUNS; run++) {
      // Lighthouse itself asks to be run again when its trace lost the navigation (NO_NAVSTART and the like).
      let row = await audit(page, url, name, run);
      for (let retry = 0; row.error && retry < 2; retry++) row = await audit(page, url, name, run);
      rows.push({ page: name, run, ...row });
    }
  };
  await measure("landing", `${stack.url}/`);
  await measure("login", `${stack.url}/login`);
  await signUpAndIn(page, stack.url);
  await measure("marketplace", `${stack.url}/marketplace`);

  console.log(`\nLighthouse ${desktop ? "desktop" : "mobile (simulated slow 4G, 4x CPU)"}, Chromium ${await browser.version()}; goal ≥ ${GOAL} each\n`);
  console.log(`  ${"page".padEnd(12)} ${"run".padStart(3)} ${"perf".padStart(5)} ${"a11y".padStart(5)}   LCP       TBT       CLS      host index`);
  for (const row of rows) {
    console.log(
      `  ${row.page.padEnd(12)} ${String(row.run).padStart(3)} ${String(row.performance).padStart(5)} ${String(row.accessibility).padStart(5)}   ${row.lcp.padEnd(9)} ${row.tbt.padEnd(9)} ${row.cls.padEnd(8)} ${row.benchmarkIndex}`,
    );
  }
  console.log("");
  for (const row of rows) {
    const tag = RUNS > 1 ? `${row.page} run ${row.run}` : row.page;
    if (!row.finalUrl.endsWith(row.page === "landing" ? "/" : `/${row.page}`)) console.log(`  ${tag}: ended on ${row.finalUrl}`);
    if (row.error) console.log(`  ${tag}: Lighthouse could not measure: ${row.error}`);
    if (row.failing.length) console.log(`  ${tag} audits below 0.9: ${row.failing.join(", ")}`);
  }
  /** The median run of a page (by performance), as Lighthouse advises for variable hosts. */
  const median = (name: string) => {
    const runs = rows.filter((row) => row.page === name).sort((a, b) => a.performance - b.performance);
    return runs[Math.floor((runs.length - 1) / 2)];
  };
  const judged = ["landing", "login", "marketplace"].map(median);
  if (RUNS > 1) console.log(`\n  median of ${RUNS} runs: ${judged.map((row) => `${row.page} ${row.performance}/${row.accessibility}`).join(", ")}`);
  const met = judged.every((row) => row.performance >= GOAL && row.accessibility >= GOAL);
  console.log(`\n  goal ≥ ${GOAL} for performance and accessibility on every page: ${met ? "met" : "not met"}\n`);
} finally {
  await browser?.close();
  await stack.stop();
}
