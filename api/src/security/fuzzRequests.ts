import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, request as httpRequest } from "node:http";
import { listRoutes, type RouteInfo } from "../http/routes";
import { CONTENT_TYPES, hostileParam, INVALID_JSON, mutate, prng, randomJson, randomMultipart, randomQuery, toJsonText, type Rng } from "./fuzz";
import { callerOf } from "./probe";
import { RECIPES, type Role } from "./requests";
import { startWorld, type World } from "./world";

/** SECURITY_FUZZ_SEED replays a failed run; SECURITY_FUZZ_COUNT changes how many requests the whole fuzz sends. */
const SEED = Number(process.env.SECURITY_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const TOTAL = Number(process.env.SECURITY_FUZZ_COUNT ?? 10_000);
/**
 * The 10,000 requests are sent by four test files of 2,500, each over its own world: one file took 150 s at
 * load 6 (17 s to build the world, 115–135 s of requests at about 9 ms of CPU each, spread over every route with
 * no hot spot in a profile), so over 300 s at load 30. Every quarter covers every route × role many times over.
 */
export const QUARTERS = 4;
// Below the API's 10-connection database pool, so requests queue in the server, not for a connection.
const CONCURRENCY = 8;
const FUZZ_ROLES: Role[] = ["anonymous", "borrower", "admin"];

interface FuzzCase {
  index: number;
  role: Role;
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

interface Outcome {
  fuzz: FuzzCase;
  ms: number;
  status?: number;
  text?: string;
  error?: string;
}

/** Sends this quarter's share of the hostile requests: cases `quarter`·n … (`quarter` + 1)·n − 1 of the seed's sequence. */
export function fuzzQuarter(quarter: number): void {
  const COUNT = Math.ceil(TOTAL / QUARTERS);
  const FIRST = quarter * COUNT;
  describe(`random and malformed requests (quarter ${quarter + 1} of ${QUARTERS})`, { timeout: 300_000 }, () => {
    let world: World;
    let routes: RouteInfo[];
    const params = new Map<string, Record<string, string>>();
    const validBodies = new Map<string, unknown>();

    before(async () => {
      world = await startWorld();
      routes = listRoutes(world.stack.api.server.app);
      // Real ids and a valid body per route and role, so half the cases reach past the first check.
      for (const route of routes) {
        const recipe = RECIPES[`${route.method} ${route.path}`] ?? {};
        params.set(route.path, recipe.params ? await recipe.params(world) : {});
        for (const role of FUZZ_ROLES) if (recipe.json) validBodies.set(`${route.method} ${route.path} ${role}`, await recipe.json(world, callerOf(world, role)));
      }
    });
    after(async () => {
      await world?.close();
    });

    function build(index: number): FuzzCase {
      const rng = prng(SEED ^ Math.imul(index + 1, 0x9e3779b1));
      const combos = routes.length * FUZZ_ROLES.length;
      const route = routes[(index % combos) % routes.length];
      const role = FUZZ_ROLES[Math.floor((index % combos) / routes.length)];
      const recipe = RECIPES[`${route.method} ${route.path}`] ?? {};
      const real = params.get(route.path) ?? {};
      let path = route.regexp
        ? `/${hostileParam(rng)}`
        : route.path.replace(/\{(\w+)\}/g, (_all, name: string) => (rng.chance(0.5) && real[name] ? encodeURIComponent(real[name]) : hostileParam(rng)));
      if (rng.chance(0.4)) path += `?${randomQuery(rng)}`;
      const headers: Record<string, string> = {};
      const token = callerOf(world, role)?.token;
      if (token) headers.authorization = `Bearer ${token}`;
      const body = randomBody(rng, route.method, validBodies.get(`${route.method} ${route.path} ${role}`), Boolean(recipe.form), headers);
      // Node frames a GET or DELETE body only when told its length.
      if (body) headers["content-length"] = String(body.length);
      return { index, role, route: `${route.method} ${route.path}`, method: route.method, path, headers, body };
    }

    function send(agent: Agent, fuzz: FuzzCase): Promise<Outcome> {
      const started = Date.now();
      return new Promise<Omit<Outcome, "ms">>((resolve) => {
        const url = new URL(world.stack.api.url);
        const req = httpRequest({ host: url.hostname, port: url.port, method: fuzz.method, path: fuzz.path, headers: fuzz.headers, agent, timeout: 60_000 }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ fuzz, status: res.statusCode, text: Buffer.concat(chunks).toString("utf8").slice(0, 500) }));
          res.on("error", (error) => resolve({ fuzz, status: res.statusCode, error: error.message }));
        });
        req.on("timeout", () => req.destroy(new Error("no answer in 60 s")));
        req.on("error", (error) => resolve({ fuzz, error: `${(error as NodeJS.ErrnoException).code ?? ""} ${error.message}` }));
        req.end(fuzz.body);
      }).then((outcome) => ({ ...outcome, ms: Date.now() - started }));
    }

    test(`answers ${COUNT.toLocaleString("en")} hostile requests on every route as anonymous, a borrower and an admin with 4xx, never 5xx (seed ${SEED})`, async (t) => {
      // A connection per request: a reused keep-alive socket the server already closed would read as a reset.
      const agent = new Agent({ keepAlive: false, maxSockets: CONCURRENCY });
      const outcomes: Outcome[] = [];
      let next = 0;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < COUNT) {
            const fuzz = build(FIRST + next++);
            const outcome = await send(agent, fuzz);
            // A fuzzed password change that happened to be valid: the session carries on with its fresh token.
            if (outcome.status === 200 && fuzz.route === "PUT /api/auth/change-password") {
              const caller = callerOf(world, fuzz.role);
              if (caller) caller.token = JSON.parse(outcome.text ?? "{}").data?.token ?? caller.token;
            }
            outcomes.push(outcome);
          }
        }),
      );
      agent.destroy();
      const seconds = (Date.now() - started) / 1000;
      const byStatus = new Map<string, number>();
      for (const o of outcomes) byStatus.set(String(o.status ?? "no answer"), (byStatus.get(String(o.status ?? "no answer")) ?? 0) + 1);
      const slowest = new Map<string, number>();
      for (const o of outcomes) slowest.set(o.fuzz.route, (slowest.get(o.fuzz.route) ?? 0) + o.ms);
      t.diagnostic(
        `time spent per route, most first: ${[...slowest]
          .sort((x, y) => y[1] - x[1])
          .slice(0, 5)
          .map(([r, ms]) => `${r} ${(ms / 1000).toFixed(1)} s`)
          .join(", ")}`,
      );
      t.diagnostic(
        `seed ${SEED}: ${outcomes.length} requests over ${routes.length} routes in ${seconds.toFixed(1)} s; statuses ${[...byStatus]
          .sort()
          .map(([s, n]) => `${s}×${n}`)
          .join(" ")}`,
      );

      const describe = (o: Outcome) =>
        `#${o.fuzz.index} ${o.fuzz.role} ${o.fuzz.method} ${o.fuzz.path.slice(0, 200)} [${o.fuzz.headers["content-type"] ?? "no type"}] ${o.fuzz.body ? o.fuzz.body.toString("utf8").slice(0, 200) : ""} → ${o.status ?? o.error} ${o.text ?? ""}`;
      const serverErrors = outcomes.filter((o) => o.status !== undefined && o.status >= 500);
      // Only a body far over the limit may be cut off mid-upload; everything else must get an answer.
      const unanswered = outcomes.filter((o) => o.status === undefined && (o.fuzz.body?.length ?? 0) < 1_000_000);
      const failures = [...serverErrors, ...unanswered];
      assert.equal(failures.length, 0, `seed ${SEED} (replay this quarter's file with SECURITY_FUZZ_SEED=${SEED}):\n${failures.slice(0, 15).map(describe).join("\n")}`);
      assert.equal(outcomes.length, COUNT);
      assert.ok((byStatus.get("400") ?? 0) + (byStatus.get("401") ?? 0) + (byStatus.get("404") ?? 0) > COUNT / 2, "most hostile requests are refused");
    });
  });
}

/** A body (and its content type) of one of the hostile kinds; GET and DELETE mostly go without one. */
function randomBody(rng: Rng, method: string, valid: unknown, multipart: boolean, headers: Record<string, string>): Buffer | undefined {
  const bodiless = method === "GET" || method === "DELETE";
  if (bodiless && rng.chance(0.8)) return undefined;
  const kind = rng.int(multipart ? 7 : 6);
  const json = (value: unknown) => {
    headers["content-type"] = "application/json";
    return Buffer.from(toJsonText(value));
  };
  switch (kind) {
    case 0:
      return valid !== undefined ? json(mutate(rng, valid)) : json(randomJson(rng));
    case 1:
      return json(randomJson(rng));
    case 2:
      headers["content-type"] = "application/json";
      return Buffer.from(rng.pick(INVALID_JSON));
    case 3: {
      headers["content-type"] = rng.pick(CONTENT_TYPES);
      return Buffer.from(rng.chance(0.5) && valid !== undefined ? JSON.stringify(valid) : toJsonText(randomJson(rng)));
    }
    case 4:
      // Over the 100 kB JSON limit.
      if (rng.chance(0.1)) return json({ padding: "x".repeat(150_000) });
      return json(valid !== undefined ? mutate(rng, mutate(rng, valid)) : randomJson(rng));
    case 5:
      return rng.chance(0.5) ? undefined : json(null);
    default: {
      const form = randomMultipart(rng);
      headers["content-type"] = form.contentType;
      return form.body;
    }
  }
}
