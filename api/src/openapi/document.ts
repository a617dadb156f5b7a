import type { Express, RequestHandler } from "express";
import { routesWithHandlers, type RouteWithHandlers } from "../http/routes";
import { validatedBodySchema } from "../http/validate";
import { envelopeSchema, errorEnvelopeSchema } from "./envelope";
import { queryParameters, toOpenApiSchema, type SchemaObject } from "./jsonSchema";
import { allOperations, OPERATION_GROUPS } from "./operations";
import type { Operation, OperationGroup } from "./types";

export interface OpenApiResult {
  document: SchemaObject & { paths: Record<string, Record<string, SchemaObject>> };
  /** Why the document is not complete: routes without docs, docs without routes, writes whose body is not described. */
  problems: string[];
}

/** Which routes the docs leave out: the SPA fallback (a RegExp, not part of the API) and anything outside /api. */
export function isApiRoute(route: { path: string; regexp?: true }): boolean {
  return !route.regexp && route.path.startsWith("/api/");
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** The OpenAPI 3.0 document of the running app: its routes from the router, body schemas off the route stacks, the rest from operations/. */
export function buildOpenApiDocument(app: Express, groups: OperationGroup[] = OPERATION_GROUPS): OpenApiResult {
  const operations = allOperations(groups);
  const problems: string[] = [];
  const paths: Record<string, Record<string, SchemaObject>> = {};
  const seen = new Set<string>();

  for (const route of routesWithHandlers(app).filter(isApiRoute)) {
    const key = `${route.method} ${route.path}`;
    seen.add(key);
    const operation = operations.get(key);
    if (!operation) problems.push(`${key} has no entry in api/src/openapi/operations/`);
    const stackBody = bodyFromStack(route.handlers);
    if (operation?.body && !("none" in operation.body) && stackBody) problems.push(`${key} declares a body, but validate() on the route already gives it`);
    if (WRITES.has(route.method) && !stackBody && !operation?.body) problems.push(`${key} accepts a body that is not described (validate() it, or declare body in operations/)`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = describe(route, operation ?? { summary: "Undocumented", access: "public" }, stackBody);
  }
  for (const key of operations.keys()) if (!seen.has(key)) problems.push(`${key} is documented but the app has no such route`);

  const document = {
    openapi: "3.0.3",
    info: {
      title: "LoanMint API",
      version: "1",
      description:
        "Generated at run time from the routes the API serves and the zod schemas they validate with. Every JSON answer is the envelope `{ success, message, data }`. Signed-in calls send `Authorization: Bearer <token>` from /auth/login, /auth/register or /auth/wallet/verify. Rate-limited calls answer 429.",
    },
    servers: [{ url: "/" }],
    tags: groups.map((g) => ({ name: g.tag, description: g.description })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: { Envelope: toOpenApiSchema(envelopeSchema, "output"), ErrorEnvelope: toOpenApiSchema(errorEnvelopeSchema, "output") },
      responses: {
        BadRequest: errorResponse("Invalid input: the message is the first problem, `data.errors` lists them all."),
        Unauthorized: errorResponse("No bearer token, or one that is invalid, expired or revoked."),
        Forbidden: errorResponse("Signed in, but not an admin."),
        NotFound: errorResponse("No such resource, or one the caller may not see."),
        PayloadTooLarge: errorResponse("The body, or an uploaded file, is over its size limit; the message names the limit where the spec does."),
      },
    },
  };
  return { document, problems };
}

function bodyFromStack(handlers: RequestHandler[]) {
  for (const handler of handlers) {
    const schema = validatedBodySchema(handler);
    if (schema) return schema;
  }
  return undefined;
}

function describe(route: RouteWithHandlers, op: Operation & { tag?: string }, stackBody: ReturnType<typeof bodyFromStack>): SchemaObject {
  const pathNames = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const parameters = [
    ...pathNames.map((name) => ({ name, in: "path", required: true, schema: op.params?.[name] ? toOpenApiSchema(op.params[name], "input") : { type: "string" } })),
    ...(op.query ? queryParameters(op.query) : []),
  ];
  const body = requestBody(op, stackBody);
  const responses: Record<string, unknown> = { [String(op.status ?? 200)]: success(op) };
  if (body || op.query || op.params) responses["400"] = ref("responses", "BadRequest");
  if (body) responses["413"] = ref("responses", "PayloadTooLarge");
  if (op.access !== "public") responses["401"] = ref("responses", "Unauthorized");
  if (op.access === "admin") responses["403"] = ref("responses", "Forbidden");
  if (pathNames.length) responses["404"] = ref("responses", "NotFound");
  return {
    operationId: operationId(route.method, route.path),
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: op.tag ? [op.tag] : [],
    security: op.access === "public" ? [] : op.access === "optional" ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

function requestBody(op: Operation, stackBody: ReturnType<typeof bodyFromStack>): SchemaObject | undefined {
  const example = op.example === undefined ? {} : { example: op.example };
  if (stackBody) return { required: true, content: { "application/json": { schema: toOpenApiSchema(stackBody, "input"), ...example } } };
  if (!op.body || "none" in op.body) return undefined;
  if ("json" in op.body) return { required: true, content: { "application/json": { schema: toOpenApiSchema(op.body.json, "input"), ...example } } };
  const { files, fields } = op.body.multipart;
  const fieldSchema = fields ? toOpenApiSchema(fields, "input") : { properties: {}, required: [] };
  return {
    required: true,
    content: {
      "multipart/form-data": {
        schema: {
          type: "object",
          properties: { ...Object.fromEntries(files.map((name) => [name, { type: "string", format: "binary" }])), ...(fieldSchema.properties as object) },
          ...((fieldSchema.required as string[] | undefined)?.length ? { required: fieldSchema.required } : {}),
        },
      },
    },
  };
}

function success(op: Operation): SchemaObject {
  if (op.raw) {
    const schema = op.raw.schema ? toOpenApiSchema(op.raw.schema, "output") : undefined;
    return { description: op.raw.description, content: Object.fromEntries(op.raw.contentTypes.map((type) => [type, schema ? { schema } : {}])) };
  }
  const schema = op.data ? { allOf: [ref("schemas", "Envelope"), { type: "object", properties: { data: toOpenApiSchema(op.data, "output") } }] } : ref("schemas", "Envelope");
  return { description: "Done: `success` is true.", content: { "application/json": { schema } } };
}

function errorResponse(description: string) {
  return { description, content: { "application/json": { schema: ref("schemas", "ErrorEnvelope") } } };
}

/** `PUT /api/admin/loans/{id}/approve` → `putAdminLoansByIdApprove`: stable, readable and unique per method and path. */
export function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/?/, "")
    .split("/")
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param ? ["by", param[1]] : segment.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}
