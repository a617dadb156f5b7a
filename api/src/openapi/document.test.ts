import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import express from "express";
import { z } from "zod";
import { startTestApi, type TestApi } from "../testing/harness";
import { listRoutes, routesWithHandlers } from "../http/routes";
import { validate, validatedBodySchema } from "../http/validate";
import { buildOpenApiDocument, isApiRoute, type OpenApiResult } from "./document";
import { toOpenApiSchema } from "./jsonSchema";
import { allOperations } from "./operations";

type Doc = OpenApiResult["document"];
const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];

describe("the OpenAPI document", () => {
  let api: TestApi;
  let doc: Doc;
  let problems: string[];
  before(async () => {
    api = await startTestApi();
    ({ document: doc, problems } = buildOpenApiDocument(api.server.app));
  });
  after(() => api.close());

  test("has no route without docs, no docs without a route, and no write whose body is undescribed", () => {
    assert.deepEqual(problems, []);
  });

  test("lists every API route the app serves, with its method", () => {
    const routes = listRoutes(api.server.app).filter(isApiRoute);
    assert.ok(routes.length > 60, `only ${routes.length} API routes found`);
    for (const { method, path } of routes) {
      assert.ok(doc.paths[path]?.[method.toLowerCase()], `${method} ${path} is missing from the document`);
    }
    const documented = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    assert.equal(documented, routes.length, "the document has operations the app does not serve");
  });

  test("leaves out only what is not the API: Prometheus' /metrics and the SPA fallback", () => {
    // A new route outside /api lands here first, so leaving it undocumented is a decision, not an accident.
    const left = listRoutes(api.server.app).filter((r) => !isApiRoute(r));
    assert.deepEqual(left.map((r) => `${r.method} ${r.regexp ? "(regexp)" : r.path}`).sort(), ["GET (regexp)", "GET /metrics"]);
  });

  test("gives every route that validates a body that very schema as its request body", () => {
    let validated = 0;
    for (const route of routesWithHandlers(api.server.app).filter(isApiRoute)) {
      const schema = route.handlers.map(validatedBodySchema).find(Boolean);
      if (!schema) continue;
      validated += 1;
      const body = doc.paths[route.path][route.method.toLowerCase()].requestBody as { content: Record<string, { schema: unknown }> };
      assert.deepEqual(body?.content["application/json"]?.schema, toOpenApiSchema(schema, "input"), `${route.method} ${route.path}`);
    }
    assert.ok(validated >= 20, `only ${validated} routes validate a body`);
  });

  test("is structurally OpenAPI 3: unique operationIds, declared path parameters, known tags and schemes, and every $ref resolves", () => {
    assert.match(String(doc.openapi), /^3\.0\.\d$/);
    const info = doc.info as { title?: string; version?: string };
    assert.ok(info.title && info.version);
    const tags = new Set((doc.tags as { name: string }[]).map((t) => t.name));
    const schemes = (doc.components as { securitySchemes: Record<string, unknown> }).securitySchemes;
    const ids = new Set<string>();
    for (const [path, operations] of Object.entries(doc.paths)) {
      assert.match(path, /^\/[^\s?#]*$/);
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      for (const [method, op] of Object.entries(operations) as [string, Record<string, any>][]) {
        assert.ok(METHODS.includes(method), method);
        assert.equal(typeof op.operationId, "string");
        assert.ok(!ids.has(op.operationId), `operationId ${op.operationId} is used twice`);
        ids.add(op.operationId);
        assert.ok(Object.keys(op.responses).length > 0, `${method} ${path} has no responses`);
        for (const status of Object.keys(op.responses)) assert.match(status, /^[1-5]\d\d$|^default$/);
        const inPath = (op.parameters ?? []).filter((p: any) => p.in === "path");
        assert.deepEqual(inPath.map((p: any) => p.name).sort(), templated, `${method} ${path} path parameters`);
        for (const p of inPath) assert.equal(p.required, true);
        for (const tag of op.tags) assert.ok(tags.has(tag), `unknown tag ${tag}`);
        for (const requirement of op.security) for (const scheme of Object.keys(requirement)) assert.ok(schemes[scheme], `unknown scheme ${scheme}`);
      }
    }
    const refs = collectRefs(doc);
    assert.ok(refs.length > 50);
    for (const ref of refs) assert.notEqual(resolve(doc, ref), undefined, `${ref} does not resolve`);
  });

  test("every example request body is accepted by the schema the route parses it with", () => {
    const routes = new Map(routesWithHandlers(api.server.app).map((r) => [`${r.method} ${r.path}`, r]));
    let checked = 0;
    for (const [key, op] of allOperations()) {
      if (op.example === undefined) continue;
      const route = routes.get(key);
      const schema = route?.handlers.map(validatedBodySchema).find(Boolean) ?? (op.body && "json" in op.body ? op.body.json : undefined);
      assert.ok(schema, `${key} has an example but no body schema`);
      const parsed = schema.safeParse(op.example);
      assert.ok(parsed.success, `${key}: ${parsed.error?.issues[0]?.message}`);
      checked += 1;
    }
    assert.ok(checked >= 15, `only ${checked} examples`);
  });

  test("the success envelope and the error answers are described once and referenced", () => {
    const components = doc.components as { schemas: Record<string, any>; responses: Record<string, unknown> };
    assert.deepEqual(Object.keys(components.schemas.Envelope.properties), ["success", "message", "data"]);
    assert.deepEqual(Object.keys(components.responses).sort(), ["BadRequest", "Forbidden", "NotFound", "PayloadTooLarge", "Unauthorized"]);
    const login = doc.paths["/api/auth/login"].post as any;
    assert.deepEqual(login.responses["200"].content["application/json"].schema, { $ref: "#/components/schemas/Envelope" });
    assert.deepEqual(login.responses["400"], { $ref: "#/components/responses/BadRequest" });
    const approve = doc.paths["/api/admin/loans/{id}/approve"].put as any;
    assert.deepEqual(approve.security, [{ bearerAuth: [] }]);
    assert.deepEqual(approve.responses["403"], { $ref: "#/components/responses/Forbidden" });
    for (const upload of [doc.paths["/api/users/kyc/upload"].post, doc.paths["/api/users/profile/upload-picture"].post] as any[]) {
      assert.deepEqual(upload.responses["413"], { $ref: "#/components/responses/PayloadTooLarge" }, "an oversized file is a documented 413");
    }
    assert.equal((doc.paths["/api/notifications"].get as any).responses["413"], undefined, "no body, no 413");
  });
});

describe("the document's checks", () => {
  test("report a route without docs, docs without a route, and a write whose body is not described", () => {
    const app = express();
    const router = express.Router();
    router.post("/thing", validate(z.object({ name: z.string() })), (_req, res) => void res.end());
    router.put("/unvalidated", (_req, res) => void res.end());
    app.use("/api/probe", router);
    const groups = [
      {
        tag: "Probe",
        description: "",
        operations: { "POST /api/probe/thing": { summary: "A thing", access: "public" as const }, "GET /api/probe/gone": { summary: "Gone", access: "public" as const } },
      },
    ];

    const { document, problems } = buildOpenApiDocument(app, groups);
    assert.deepEqual(problems.sort(), [
      "GET /api/probe/gone is documented but the app has no such route",
      "PUT /api/probe/unvalidated accepts a body that is not described (validate() it, or declare body in operations/)",
      "PUT /api/probe/unvalidated has no entry in api/src/openapi/operations/",
    ]);
    const thing = document.paths["/api/probe/thing"].post as any;
    assert.deepEqual(thing.requestBody.content["application/json"].schema.required, ["name"]);
    assert.equal((document.paths["/api/probe/unvalidated"].put as any).summary, "Undocumented");
  });
});

function collectRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => collectRefs(v, out));
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if (key === "$ref" && typeof v === "string") out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

function resolve(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), doc);
}
