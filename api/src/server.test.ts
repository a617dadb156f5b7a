import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { loadConfig } from "./config/env";
import { startServer } from "./server";

test("startServer alone opens PGlite in DATA_DIR, serves the API, socket.io and the built app, and closes everything", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "lm-server-"));
  const staticDir = join(dataDir, "dist");
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, "index.html"), "<!doctype html><title>LoanMint</title>");
  try {
    const config = loadConfig({ DATA_DIR: dataDir, RPC_URL: "http://127.0.0.1:9", LOG_LEVEL: "silent" });
    const server = await startServer({ port: 0, config, staticDir, logger: pino({ level: "silent" }) });
    try {
      assert.equal(server.database.kind, "pglite");
      assert.match(server.url, /^http:\/\/localhost:\d+$/);
      const base = `http://127.0.0.1:${server.port}`;
      const health = await fetch(`${base}/api/health`);
      assert.equal(health.status, 200);
      assert.equal((await health.json()).data.database, "ok");

      const page = await fetch(`${base}/marketplace/nft/7`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<title>LoanMint<\/title>/);
      const missingApi = await fetch(`${base}/api/marketplace/nope`);
      assert.equal(missingApi.status, 404);
      assert.equal((await missingApi.json()).success, false);

      const handshake = await fetch(`${base}/socket.io/?EIO=4&transport=polling`);
      assert.equal(handshake.status, 200);
      assert.match(await handshake.text(), /"sid"/);
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
