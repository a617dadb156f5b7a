import { defineConfig } from "@playwright/test";
import { resolve } from "node:path";
import { E2E_BASE_URL } from "./e2e/stack";

const root = import.meta.dirname;

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  // A hang guard, not a speed check: beside another full test run the axe walks of a11y.spec took 60 s of the old 60.
  timeout: 180_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? "test-results/e2e.json" }]],
  outputDir: "test-results/artifacts",
  use: {
    baseURL: E2E_BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/lib/chromium/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: {
    command: "node --import tsx e2e/server.ts",
    url: `${E2E_BASE_URL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: `${resolve(root, "node_modules/.bin")}:${process.env.PATH}` },
  },
});
