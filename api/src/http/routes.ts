import type { Express, RequestHandler } from "express";

/** One method on one path of the real app; `path` is OpenAPI-style (`/api/loans/{id}`). */
export interface RouteInfo {
  method: string;
  path: string;
  /** Set when the route (or a mount above it) is a RegExp, e.g. the SPA fallback; `path` is then its source. */
  regexp?: true;
}

/** A route with the handlers that serve it, outermost mount first; the doc generator reads tags off them. */
export interface RouteWithHandlers extends RouteInfo {
  /** The Express path as written (`/api/loans/:id`). */
  expressPath: string;
  /** Middleware from `use()` layers of the routers it is mounted through, then the route's own stack. */
  handlers: RequestHandler[];
}

// The `router` package (Express 5) types are not re-exported by express; these are the parts we read.
interface Layer {
  rawPath?: string | RegExp | (string | RegExp)[];
  route?: { stack: Layer[] };
  handle: RequestHandler & { stack?: Layer[] };
}
interface RouterLike {
  stack: Layer[];
  listRoutes(): { path: string | RegExp; methods?: string[]; router?: RouterLike }[];
}

/** Every method × path the app answers through its routers (static files and sub-apps are middleware, not routes). */
export function listRoutes(app: Express): RouteInfo[] {
  return routesWithHandlers(app).map(({ method, path, regexp }) => (regexp ? { method, path, regexp } : { method, path }));
}

export function routesWithHandlers(app: Express): RouteWithHandlers[] {
  const out: RouteWithHandlers[] = [];
  const seen = new Set<string>();
  walk((app as unknown as { router: RouterLike }).router, "", false, [], out, seen);
  return out;
}

function walk(router: RouterLike, prefix: string, regexp: boolean, inherited: RequestHandler[], out: RouteWithHandlers[], seen: Set<string>) {
  // listRoutes() gives paths and methods; the stack (same order) gives the middleware a route sits behind.
  const listed = router.listRoutes();
  const middleware: RequestHandler[] = [...inherited];
  let next = 0;
  for (const layer of router.stack) {
    const isRoute = Boolean(layer.route);
    const isRouter = !isRoute && Array.isArray(layer.handle.stack);
    if (!isRoute && !isRouter) {
      // Path-less use() middleware (auth, rate limits) guards every later layer of this router.
      if (layer.rawPath === undefined || layer.rawPath === "/" || layer.rawPath === "") middleware.push(layer.handle);
      continue;
    }
    const count = Array.isArray(layer.rawPath) ? layer.rawPath.length : 1;
    for (const entry of listed.slice(next, next + count)) {
      const isRe = regexp || entry.path instanceof RegExp;
      // A RegExp is shown as its source after the mount prefix; it has no OpenAPI form.
      const path = entry.path instanceof RegExp ? prefix.replace(/\/$/, "") + entry.path.source : join(prefix, entry.path);
      if (entry.router) {
        walk(entry.router, path, isRe, middleware, out, seen);
        continue;
      }
      const handlers = [...middleware, ...layer.route!.stack.map((l) => l.handle)];
      for (const method of methodsOf(entry.methods ?? [])) {
        const openapi = isRe ? path : toOpenApiPath(path);
        const key = `${method} ${openapi}`;
        if (seen.has(key)) continue; // an earlier registration answers; the later one is unreachable
        seen.add(key);
        out.push({ method, path: openapi, expressPath: path, handlers, ...(isRe ? { regexp: true as const } : {}) });
      }
    }
    next += count;
  }
}

/** Express adds HEAD to every GET; `.all()` shows as '*'. Neither is a separate operation. */
function methodsOf(methods: string[]): string[] {
  const own = methods.filter((m) => m !== "HEAD" || !methods.includes("GET"));
  return own.map((m) => (m === "*" ? "ALL" : m));
}

function join(prefix: string, path: string): string {
  const joined = `${prefix.replace(/\/$/, "")}/${path.replace(/^\//, "")}`;
  return joined.length > 1 ? joined.replace(/\/$/, "") : joined;
}

/** `/loans/:id` → `/loans/{id}`; `*rest` → `{rest}`; optional groups `{/:x}` lose their braces. */
export function toOpenApiPath(path: string): string {
  return path.replace(/\{([^{}]*)\}/g, "$1").replace(/[:*]([A-Za-z_$][\w$]*)/g, "{$1}");
}
