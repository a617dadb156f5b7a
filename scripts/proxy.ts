// The front door of `npm run cluster`: one loopback port spreading requests and sockets over the API processes.
// Plain HTTP goes round-robin. A socket.io session stays on the process that opened it: engine.io's long-polling
// requests carry the session id (`sid`), which the proxy learns from the handshake answer; WebSocket upgrades
// without a sid go round-robin like any request (docs/decisions.md "Several API processes").
import { Agent, createServer, request, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ProxyOptions {
  /** Backend origins, e.g. http://127.0.0.1:5002. */
  backends: string[];
  port?: number;
  host?: string;
  /** Told which backend each request or upgrade went to (benches count clients per process with it). */
  onRoute?(req: IncomingMessage, backend: number, kind: "http" | "upgrade"): void;
}

export interface BackendStats {
  origin: string;
  requests: number;
  upgrades: number;
  /** WebSockets currently open through the proxy to this backend. */
  openSockets: number;
}

export interface Proxy {
  url: string;
  port: number;
  stats(): BackendStats[];
  close(): Promise<void>;
}

/** A polling session not seen for this long is forgotten (engine.io pings every 25 s by default). */
const SESSION_TTL_MS = 120_000;

export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const backends = options.backends.map((origin) => new URL(origin));
  const stats: BackendStats[] = options.backends.map((origin) => ({ origin, requests: 0, upgrades: 0, openSockets: 0 }));
  const sessions = new Map<string, { backend: number; seen: number }>();
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  let next = 0;

  /** The session's process for a socket.io request with a sid, else the next one in turn. */
  function choose(req: IncomingMessage): { backend: number; sticky: boolean } {
    const sid = socketIoSid(req.url);
    const session = sid ? sessions.get(sid) : undefined;
    if (session) {
      session.seen = Date.now();
      return { backend: session.backend, sticky: true };
    }
    next = (next + 1) % backends.length;
    return { backend: next, sticky: false };
  }

  function forwardedHeaders(req: IncomingMessage, target: URL): OutgoingHttpHeaders {
    const remote = req.socket.remoteAddress ?? "";
    const prior = req.headers["x-forwarded-for"];
    return {
      ...req.headers,
      "x-forwarded-for": prior ? `${prior}, ${remote}` : remote,
      "x-forwarded-proto": "http",
      "x-forwarded-host": req.headers.host ?? target.host,
    };
  }

  function proxyHttp(req: IncomingMessage, res: ServerResponse, attempt = 0): void {
    const { backend, sticky } = choose(req);
    const target = backends[backend];
    stats[backend].requests++;
    options.onRoute?.(req, backend, "http");
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: forwardedHeaders(req, target), agent }, (answer) => {
      // A polling handshake answers `0{"sid":"…",…}`: later requests of that session must come back here.
      if (!sticky && req.url?.startsWith("/socket.io/") && !socketIoSid(req.url)) learnSession(answer, backend);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      // A stopped process refused the connection before reading anything: a request with no body can go to another.
      const retryable = error.code === "ECONNREFUSED" && !sticky && (req.method === "GET" || req.method === "HEAD") && attempt < backends.length - 1;
      if (retryable) return proxyHttp(req, res, attempt + 1);
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "application/json" });
        res.end(JSON.stringify({ success: false, message: "No API process answered", data: null }));
      } else res.destroy();
    });
    req.pipe(upstream);
  }

  function learnSession(answer: IncomingMessage, backend: number): void {
    let head = "";
    const listen = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      const sid = /"sid":"([^"]+)"/.exec(head)?.[1];
      if (sid || head.length > 512) {
        answer.off("data", listen);
        if (sid) sessions.set(sid, { backend, seen: Date.now() });
      }
    };
    answer.on("data", listen);
  }

  function proxyUpgrade(req: IncomingMessage, client: Socket, head: Buffer): void {
    const { backend } = choose(req);
    const target = backends[backend];
    stats[backend].upgrades++;
    options.onRoute?.(req, backend, "upgrade");
    client.on("error", () => client.destroy());
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: forwardedHeaders(req, target) });
    upstream.on("upgrade", (answer, server, serverHead) => {
      const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
      client.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (serverHead.length) client.write(serverHead);
      if (head.length) server.write(head);
      stats[backend].openSockets++;
      sockets.add(client);
      sockets.add(server);
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        stats[backend].openSockets--;
        sockets.delete(client);
        sockets.delete(server);
        client.destroy();
        server.destroy();
      };
      server.on("error", close).on("close", close);
      client.on("close", close);
      server.pipe(client).pipe(server);
    });
    // The backend refused the upgrade (e.g. 400 for an unknown session): pass its answer on as it is.
    upstream.on("response", (answer) => {
      const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
      client.write(`${lines.join("\r\n")}\r\n\r\n`);
      answer.pipe(client);
    });
    upstream.on("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"));
    upstream.end();
  }

  const server = createServer(proxyHttp);
  server.on("upgrade", proxyUpgrade);
  server.on("clientError", (_error, socket) => socket.destroy());
  const sweep = setInterval(() => {
    const cutoff = Date.now() - SESSION_TTL_MS;
    for (const [sid, session] of sessions) if (session.seen < cutoff) sessions.delete(sid);
  }, SESSION_TTL_MS / 2);
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}`,
    port,
    stats: () => stats.map((s) => ({ ...s })),
    async close() {
      clearInterval(sweep);
      for (const socket of sockets) socket.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      agent.destroy();
    },
  };
}

/** The engine.io session id of a socket.io request, if it has one. */
function socketIoSid(url: string | undefined): string | null {
  if (!url?.startsWith("/socket.io/")) return null;
  return new URL(url, "http://x").searchParams.get("sid");
}
