// How a person meets the marketplace and a note's page: for each page, the requests it makes and the time until its
// price is on screen, on a warm tab (the app's code cached, the splash seen), side by side with the marketplace page
// as the baseline measured in the same run. Figures only; no goal is asserted. `--url http://host:port` measures a
// stack already running (e.g. `npm start`); `--runs N` loads each page N times and prints the median.
import puppeteer, { type Page } from "puppeteer-core";
import { startStack } from "./lib/stack";
import { percentile } from "./lib/stats";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/lib/chromium/chromium";
const urlFlag = process.argv.indexOf("--url");
const givenUrl = urlFlag >= 0 ? process.argv[urlFlag + 1]?.replace(/\/$/, "") : undefined;
const runsFlag = process.argv.indexOf("--runs");
const RUNS = runsFlag >= 0 ? Math.max(1, Number(process.argv[runsFlag + 1]) || 1) : 5;

interface Load {
  requests: number;
  apiRequests: number;
  ms: number;
  /** The API paths asked, in order: what a reader checks when the count moves. */
  apiPaths: string[];
}

/** Loads `path` and waits for every selector: the requests made (all, and to /api) and the milliseconds to the last. */
async function load(page: Page, url: string, path: string, selectors: string[]): Promise<Load> {
  let requests = 0;
  const apiPaths: string[] = [];
  const count = (request: { url(): string }) => {
    requests += 1;
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/api/")) apiPaths.push(pathname);
  };
  page.on("request", count);
  const started = performance.now();
  await page.goto(`${url}${path}`);
  for (const selector of selectors) await page.waitForSelector(selector, { timeout: 60_000 });
  const ms = performance.now() - started;
  page.off("request", count);
  return { requests, apiRequests: apiPaths.length, ms, apiPaths };
}

const stack = givenUrl ? { url: givenUrl, stop: async () => {} } : await startStack();
const browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"] });
try {
  const page = await browser.newPage();
  const listed = (await (await fetch(`${stack.url}/api/nfts/marketplace/browse?limit=1`)).json()) as { data: { nfts: { tokenId: string }[] } };
  const tokenId = listed.data.nfts[0]?.tokenId;
  if (!tokenId) throw new Error("no listed note to measure: start a stack with the living demo");
  // A warm tab: the code cached and the once-per-tab splash seen, as a visitor following a second link meets it.
  await load(page, stack.url, "/marketplace", ['[data-testid="note-card"]']);
  // A visitor's Buy is the sign-in link beside the price.
  const pages = [
    { name: "marketplace (baseline)", path: "/marketplace", selectors: ['[data-testid="note-card"]'] },
    { name: `note #${tokenId} page`, path: `/marketplace/nft/${tokenId}`, selectors: ['[data-testid="listing-price"]', '[data-testid="sign-in-to-act"]'] },
  ];
  const rows: Array<[string, Load]> = [];
  for (const { name, path, selectors } of pages) {
    const runs: Load[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await load(page, stack.url, path, selectors));
    rows.push([
      name,
      {
        requests: percentile(
          runs.map((r) => r.requests),
          50,
        ),
        apiRequests: percentile(
          runs.map((r) => r.apiRequests),
          50,
        ),
        ms: percentile(
          runs.map((r) => r.ms),
          50,
        ),
        apiPaths: runs.at(-1)!.apiPaths,
      },
    ]);
  }
  const baseline = rows[0][1];
  console.log(`page                          requests  api  ms to price and Buy (median of ${RUNS})  × baseline`);
  for (const [name, r] of rows) {
    console.log(`${name.padEnd(30)}${String(r.requests).padStart(8)}${String(r.apiRequests).padStart(5)}${r.ms.toFixed(0).padStart(12)}${(r.ms / baseline.ms).toFixed(2).padStart(27)}`);
  }
  for (const [name, r] of rows) console.log(`${name}: ${r.apiPaths.join(", ")}`);
} finally {
  await browser.close();
  await stack.stop();
}
