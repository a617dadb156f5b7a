import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { newRegistration, startTestApi, type TestApi } from "../testing/harness";
import { routesWithHandlers } from "../http/routes";
import { requireAdmin } from "../http/auth";
import { buildOpenApiDocument, isApiRoute } from "./document";
import { allOperations } from "./operations";

describe("/api/docs", () => {
  let api: TestApi;
  let borrower: string;
  before(async () => {
    api = await startTestApi();
    const registered = await api.call("POST", "/auth/register", { body: newRegistration() });
    borrower = registered.body.data.token;
  });
  after(() => api.close());

  test("answers an HTML page whose script and style are same-origin files the server serves", async () => {
    const page = await fetch(`${api.url}/api/docs`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    const csp = page.headers.get("content-security-policy") ?? "";
    assert.match(csp, /script-src 'self'/, "the page is served under the app's CSP");
    const html = await page.text();
    assert.ok(!/<script>(?!<\/script>)/.test(html) && !/<script(?![^>]*\bsrc=)[^>]*>/.test(html), "no inline script");
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((u) => u.startsWith("/api/docs/assets/"));
    assert.equal(assets.length, 3);
    for (const asset of assets) {
      const answer = await fetch(`${api.url}${asset}`);
      assert.equal(answer.status, 200, asset);
      assert.match(answer.headers.get("content-type") ?? "", asset.endsWith(".css") ? /^text\/css/ : /^text\/javascript/);
      assert.ok((await answer.arrayBuffer()).byteLength > 100, asset);
    }
  });

  test("answers the OpenAPI document as JSON, the same one the generator builds", async () => {
    const answer = await fetch(`${api.url}/api/docs/openapi.json`);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(await answer.json(), JSON.parse(JSON.stringify(buildOpenApiDocument(api.server.app).document)));
  });

  test("serves no file but its own assets", async () => {
    for (const path of ["/api/docs/assets/package.json", "/api/docs/assets/..%2F..%2Fpackage.json", "/api/docs/assets/index.html", "/api/docs/assets/constructor"]) {
      const answer = await fetch(`${api.url}${path}`);
      assert.equal(answer.status, 404, path);
    }
  });

  test("documents who may call each route as the running app enforces it", async () => {
    const operations = allOperations();
    for (const route of routesWithHandlers(api.server.app).filter(isApiRoute)) {
      const key = `${route.method} ${route.path}`;
      const op = operations.get(key)!;
      assert.equal(route.handlers.includes(requireAdmin), op.access === "admin", `${key}: requireAdmin on the route ⇔ documented admin`);
      const url = `${api.url}${route.path.replace(/\{[^}]+\}/g, "1")}`;
      const status = async (token?: string) => {
        const answer = await fetch(url, {
          method: route.method,
          headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: route.method === "GET" ? undefined : "{}",
        });
        await answer.arrayBuffer();
        return answer.status;
      };
      const anonymous = await status();
      assert.equal(anonymous === 401, op.access === "user" || op.access === "admin", `${key} (${op.access}) answered ${anonymous} without a token`);
      if (op.access === "admin") assert.equal(await status(borrower), 403, `${key} let a borrower through`);
      if (op.access === "optional" || op.access === "public") {
        assert.equal((await status("not-a-token")) === 401, op.access === "optional", `${key} (${op.access}) and a forged token`);
      }
    }
  });

  test("documented answer schemas accept what the app really answers", async () => {
    const samples: Record<string, () => Promise<unknown>> = {
      "GET /api/config": async () => (await api.call("GET", "/config")).body.data,
      "GET /api/health": async () => (await api.call("GET", "/health")).body.data,
      "POST /api/chatbot/message": async () => (await api.call("POST", "/chatbot/message", { body: { message: "How do I apply for a loan?" }, token: borrower })).body.data,
      "GET /api/chatbot/history": async () => (await api.call("GET", "/chatbot/history", { token: borrower })).body.data,
      "GET /api/collateral/mine": async () => (await api.call("GET", "/collateral/mine", { token: borrower })).body.data,
      "GET /api/collateral/collections": async () => (await api.call("GET", "/collateral/collections")).body.data,
    };
    // The order, collateral, treasury, statement and reconciliation routes need a chain: their own tests (orders,
    // collateral, treasury/offers, statements, reconciliation) parse their answers with these same schemas.
    const CHECKED_WITH_A_CHAIN = [
      "POST /api/orders/typed-data",
      "POST /api/orders",
      "GET /api/orders/note/{tokenId}",
      "GET /api/orders/mine",
      "GET /api/orders/matching",
      "GET /api/loans/{id}/collateral",
      "PUT /api/admin/loans/{id}/collateral/appraisal",
      "POST /api/nfts/{tokenId}/collateral/claim",
      "GET /api/admin/treasury/offers",
      "POST /api/admin/treasury/offers/{hash}/accept",
      "GET /api/loans/{id}/statement",
      "GET /api/portfolio/statement",
      "GET /api/admin/reconciliation",
    ];
    const withData = [...allOperations()].filter(([key, op]) => op.data && !CHECKED_WITH_A_CHAIN.includes(key));
    assert.deepEqual(withData.map(([key]) => key).sort(), Object.keys(samples).sort(), "each documented answer schema needs a sample here");
    for (const [key, op] of withData) {
      const parsed = op.data!.safeParse(await samples[key]());
      assert.ok(parsed.success, `${key}: ${JSON.stringify(parsed.error?.issues[0])}`);
    }
  });
});
