import type { TestUser } from "#testing/loanStack";
import type { Answer } from "../testing/harness";
import { fillPath, RECIPES, ROLES, type Recipe, type Role } from "./requests";
import type { World } from "./world";

export interface Probe {
  method: string;
  path: string;
  role: Role;
  url: string;
  answer: Answer;
}

export const callerOf = (world: World, role: Role): TestUser | undefined => (role === "anonymous" ? undefined : role === "borrower" ? world.a : role === "otherBorrower" ? world.b : world.admin);

/** Sends one request to the real server and reads the envelope (or null when the answer is not JSON). */
export async function send(baseUrl: string, method: string, url: string, options: { token?: string; json?: unknown; form?: FormData }): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  const response = await fetch(`${baseUrl}${url}`, { method, headers, body });
  const text = await response.text();
  let parsed: Answer["body"];
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null as unknown as Answer["body"];
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/**
 * Calls one route as each role in turn: anonymous, then borrower B, then borrower A, then the admin, so that
 * the callers who should be refused go before the ones whose call may change the resource.
 */
export async function probeRoute(world: World, route: { method: string; path: string; regexp?: true }): Promise<Probe[]> {
  const recipe: Recipe = RECIPES[`${route.method} ${route.path}`] ?? {};
  if (route.regexp && !recipe.example) throw new Error(`RegExp route ${route.path} needs an example path in requests.ts`);
  const params = recipe.params ? await recipe.params(world) : {};
  const base = route.regexp ? recipe.example! : fillPath(route.path, params);
  const url = recipe.query ? `${base}?${recipe.query}` : base;
  const probes: Probe[] = [];
  for (const role of ROLES) {
    const caller = callerOf(world, role);
    const answer = await send(world.stack.api.url, route.method, url, {
      token: caller?.token,
      json: recipe.json ? await recipe.json(world, caller) : undefined,
      form: recipe.form?.(world, caller),
    });
    recipe.after?.(answer, caller);
    probes.push({ method: route.method, path: route.path, role, url, answer });
  }
  return probes;
}
