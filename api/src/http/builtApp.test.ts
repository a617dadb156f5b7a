import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gzipSync } from "node:zlib";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import express from "express";
import { serveBuiltApp } from "./builtApp";

describe("serving the built app", () => {
  const dir = mkdtempSync(join(tmpdir(), "built-app-"));
  const script = "console.log('LoanMint');".repeat(100);
  let server: Server;
  let base: string;

  before(async () => {
    mkdirSync(join(dir, "assets"));
    writeFileSync(join(dir, "assets", "index-abc123.js"), script);
    writeFileSync(join(dir, "assets", "index-abc123.js.br"), brotliCompressSync(script));
    writeFileSync(join(dir, "assets", "index-abc123.js.gz"), gzipSync(script));
    writeFileSync(join(dir, "robots.txt"), "User-agent: *");
    writeFileSync(join(tmpdir(), "outside.txt"), "secret");
    const app = express()
      .use(serveBuiltApp(dir))
      .use((_req, res) => res.status(404).send("fallthrough"));
    server = createServer(app).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string, encoding?: string) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      // node's fetch decompresses by itself; the raw bytes prove what was sent.
      void import("node:http").then(({ get: httpGet }) =>
        httpGet(`${base}${path}`, { headers: encoding ? { "accept-encoding": encoding } : {} }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on("error", reject),
      );
    });

  it("sends the brotli copy to browsers that accept it, typed as the original", async () => {
    const res = await get("/assets/index-abc123.js", "gzip, deflate, br");
    assert.equal(res.status, 200);
    assert.equal(res.headers["content-encoding"], "br");
    assert.match(String(res.headers["content-type"]), /javascript/);
    assert.equal(brotliDecompressSync(res.body).toString(), script);
  });

  it("falls back to gzip, then to the plain file", async () => {
    assert.equal((await get("/assets/index-abc123.js", "gzip")).headers["content-encoding"], "gzip");
    const plain = await get("/assets/index-abc123.js");
    assert.equal(plain.headers["content-encoding"], undefined);
    assert.equal(plain.body.toString(), script);
  });

  it("caches hashed assets for a year, and other files are not marked immutable", async () => {
    assert.match(String((await get("/assets/index-abc123.js", "br")).headers["cache-control"]), /immutable/);
    assert.doesNotMatch(String((await get("/robots.txt")).headers["cache-control"]), /immutable/);
  });

  it("never serves a file outside the app's folder, and passes unknown paths on", async () => {
    assert.equal((await get("/../outside.txt")).body.toString(), "fallthrough");
    assert.equal((await get("/%2e%2e/outside.txt")).body.toString(), "fallthrough");
    assert.equal((await get("/%E0%A4%A")).body.toString(), "fallthrough");
    assert.equal((await get("/loans/42")).body.toString(), "fallthrough");
  });
});
