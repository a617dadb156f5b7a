import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import express, { Router } from "express";
import { startTestApi, type TestApi } from "../testing/harness";
import { listRoutes, routesWithHandlers, toOpenApiPath } from "./routes";

const noop: express.RequestHandler = (_req, res) => void res.end();

describe("listRoutes", () => {
  test("joins mount paths through nested routers and writes parameters the OpenAPI way", () => {
    const app = express();
    const inner = Router();
    inner.get("/:id", noop);
    inner.route("/:id/items/:itemId").put(noop).delete(noop);
    const outer = Router();
    outer.use("/things", inner);
    outer.post("/", noop);
    app.use("/api", outer);
    app.get("/plain", noop);

    assert.deepEqual(listRoutes(app), [
      { method: "GET", path: "/api/things/{id}" },
      { method: "PUT", path: "/api/things/{id}/items/{itemId}" },
      { method: "DELETE", path: "/api/things/{id}/items/{itemId}" },
      { method: "POST", path: "/api" },
      { method: "GET", path: "/plain" },
    ]);
  });

  test("a route on several paths is listed once per path, and a RegExp route is marked", () => {
    const app = express();
    app.get(["/a", "/b"], noop);
    app.get(/^\/spa/, noop);
    assert.deepEqual(listRoutes(app), [
      { method: "GET", path: "/a" },
      { method: "GET", path: "/b" },
      { method: "GET", path: "^\\/spa", regexp: true },
    ]);
  });

  test("a path registered twice is listed once: the first registration is the one that answers", () => {
    const app = express();
    app.get("/x", noop);
    app.get("/x", noop);
    assert.equal(listRoutes(app).length, 1);
  });

  test("a route carries the path-less middleware of every router above it, and only theirs", () => {
    const guard: express.RequestHandler = (_req, _res, next) => next();
    const guarded = Router();
    guarded.use(guard);
    guarded.get("/secret", noop);
    const app = express();
    app.use("/g", guarded);
    app.get("/open", noop);
    const [secret, open] = routesWithHandlers(app);
    assert.ok(secret.handlers.includes(guard));
    assert.ok(!open.handlers.includes(guard));
    assert.equal(secret.expressPath, "/g/secret");
  });

  test("splats and optional groups become plain parameters", () => {
    assert.equal(toOpenApiPath("/files/*rest"), "/files/{rest}");
    assert.equal(toOpenApiPath("/a{/:b}"), "/a/{b}");
  });

  describe("on the real app", () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi();
    });
    after(() => api.close());

    test("lists the API's routes under /api with their methods", () => {
      const routes = listRoutes(api.server.app);
      const has = (method: string, path: string) => routes.some((r) => r.method === method && r.path === path);
      assert.ok(has("POST", "/api/auth/login"));
      assert.ok(has("GET", "/api/loans/{id}"));
      assert.ok(has("PUT", "/api/admin/loans/{id}/approve"));
      assert.ok(has("POST", "/api/rpc"));
      assert.ok(!routes.some((r) => r.method === "HEAD"), "HEAD is Express's automatic twin of GET");
      const keys = routes.map((r) => `${r.method} ${r.path}`);
      assert.equal(new Set(keys).size, keys.length);
    });

    test("every listed API route is answered by its own handler, never by the unknown-route 404", async () => {
      // Proves the listing matches what the app really serves, not just what it registered.
      const answer = async (method: string, path: string) => {
        const response = await fetch(`${api.url}${path}`, { method, headers: { "content-type": "application/json" }, body: method === "GET" ? undefined : "{}" });
        const json = /json/.test(response.headers.get("content-type") ?? "") ? await response.json() : (await response.arrayBuffer(), null);
        return { status: response.status, message: json?.message };
      };
      // An unmatched path falls through to notFoundHandler's bare "Not found"; handlers name what is missing.
      assert.deepEqual(await answer("GET", "/api/no/such/route"), { status: 404, message: "Not found" });
      for (const route of listRoutes(api.server.app)) {
        if (route.regexp || !route.path.startsWith("/api/")) continue;
        const got = await answer(route.method, route.path.replace(/\{[^}]+\}/g, "1"));
        assert.notDeepEqual(got, { status: 404, message: "Not found" }, `${route.method} ${route.path} answered as an unknown route`);
      }
    });
  });
});
