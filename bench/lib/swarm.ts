// Many socket.io clients in one process, each timing when a numbered broadcast reaches it.
import { io, type Socket } from "socket.io-client";
import { summarize, type Summary } from "./stats";

export interface SwarmOptions {
  url: string;
  count: number;
  /** One per client (cycled); none for a server that asks no authentication. */
  tokens?: string[];
  /** Sent after connecting: e.g. "subscribe:marketplace", awaited with its ack. */
  subscribe?: string;
  /** The events timed; each arrival is filed under broadcastKey(event, payload's seq or nftId). */
  events: string[];
  /** Handshakes in flight at once: clients arriving, not a SYN flood against the listen backlog. */
  concurrency?: number;
  /** Extra handshake query, e.g. a tag a proxy can see. */
  query?: (index: number) => Record<string, string>;
}

export interface ConnectReport {
  connected: number;
  failed: number;
  firstError?: string;
  /** From the first handshake started to the last client connected and subscribed. */
  wallMs: number;
  /** Per client: handshake started to subscribed. */
  perClient: Summary;
}

export interface DeliveryReport {
  received: number;
  expected: number;
  latency: Summary;
}

/** Which broadcast an arrival belongs to: the event and the payload's `seq`, else its `nftId`, else `tokenId`. */
export const broadcastKey = (event: string, id: number | string) => `${event}#${id}`;
const keyOf = (event: string, payload: any) => broadcastKey(event, payload?.seq ?? payload?.nftId ?? payload?.tokenId);

export function createSwarm(options: SwarmOptions) {
  const sockets: Socket[] = [];
  const armed = new Map<string, { start: number; arrivals: Map<number, number> }>();

  function openOne(index: number): Promise<number> {
    const started = performance.now();
    const token = options.tokens?.length ? options.tokens[index % options.tokens.length] : undefined;
    const socket = io(options.url, {
      auth: token ? { token } : {},
      query: options.query?.(index),
      transports: ["websocket"],
      reconnection: false,
      forceNew: true,
      timeout: 30_000,
    });
    sockets.push(socket);
    for (const event of options.events) {
      socket.on(event, (payload: unknown) => {
        const round = armed.get(keyOf(event, payload));
        // The first arrival per client counts; a client hearing one broadcast twice still counts once.
        if (round && !round.arrivals.has(index)) round.arrivals.set(index, performance.now() - round.start);
      });
    }
    return new Promise((resolve, reject) => {
      socket.once("connect_error", (error) => reject(error));
      socket.once("connect", async () => {
        try {
          if (options.subscribe) await socket.timeout(30_000).emitWithAck(options.subscribe);
          resolve(performance.now() - started);
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  return {
    sockets,
    async connect(): Promise<ConnectReport> {
      const durations: number[] = [];
      let failed = 0;
      let firstError: string | undefined;
      let next = 0;
      const began = performance.now();
      const worker = async () => {
        while (next < options.count) {
          const index = next++;
          try {
            durations.push(await openOne(index));
          } catch (error) {
            failed++;
            firstError ??= error instanceof Error ? error.message : String(error);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 100, options.count) }, worker));
      return { connected: durations.length, failed, firstError, wallMs: performance.now() - began, perClient: summarize(durations) };
    },
    /** Starts the clock for a broadcast (see broadcastKey): call just before asking the server to send it. */
    arm(key: string): void {
      armed.set(key, { start: performance.now(), arrivals: new Map() });
    },
    /** Waits until every connected client has the broadcast (or the timeout), then reports who did and when. */
    async collect(key: string, timeoutMs = 15_000): Promise<DeliveryReport & { latencies: number[]; receivedBy: number[] }> {
      const round = armed.get(key);
      if (!round) throw new Error(`broadcast ${key} was never armed`);
      const expected = sockets.filter((s) => s.connected).length;
      const deadline = performance.now() + timeoutMs;
      while (round.arrivals.size < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      armed.delete(key);
      const latencies = [...round.arrivals.values()];
      return { received: round.arrivals.size, expected, latency: summarize(latencies), latencies, receivedBy: [...round.arrivals.keys()] };
    },
    close(): void {
      for (const socket of sockets) socket.close();
      sockets.length = 0;
    },
  };
}
