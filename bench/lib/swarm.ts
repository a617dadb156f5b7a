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
  /** The event whose payload carries `seq`. */
  event: string;
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

/** Payloads name their broadcast with `seq` (a number) directly or as `nftId`. */
const seqOf = (payload: any): number => Number(payload?.seq ?? payload?.nftId);

export function createSwarm(options: SwarmOptions) {
  const sockets: Socket[] = [];
  const armed = new Map<number, { start: number; arrivals: number[] }>();

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
    socket.on(options.event, (payload: unknown) => {
      const round = armed.get(seqOf(payload));
      if (round) round.arrivals.push(performance.now() - round.start);
    });
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
    /** Starts the clock for broadcast `seq`: call just before asking the server to send it. */
    arm(seq: number): void {
      armed.set(seq, { start: performance.now(), arrivals: [] });
    },
    /** Waits until every connected client has broadcast `seq` (or the timeout), then reports. */
    async collect(seq: number, timeoutMs = 15_000): Promise<DeliveryReport & { latencies: number[] }> {
      const round = armed.get(seq);
      if (!round) throw new Error(`broadcast ${seq} was never armed`);
      const expected = sockets.filter((s) => s.connected).length;
      const deadline = performance.now() + timeoutMs;
      while (round.arrivals.length < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      // Late duplicates would be a bug worth seeing: give them a moment to show.
      await new Promise((r) => setTimeout(r, 50));
      armed.delete(seq);
      return { received: round.arrivals.length, expected, latency: summarize(round.arrivals), latencies: round.arrivals };
    },
    close(): void {
      for (const socket of sockets) socket.close();
      sockets.length = 0;
    },
  };
}
