import assert from "node:assert/strict";
import { io as connect, type Socket } from "socket.io-client";
import { sql } from "drizzle-orm";
import type { Db } from "#db/connect";
import { newRegistration } from "../testing/harness";

export interface Account {
  id: string;
  token: string;
  email: string;
  password: string;
}

type Call = (method: string, path: string, options?: { body?: unknown; token?: string }) => Promise<{ status: number; body: any }>;

/** Registers and signs in a user; `admin` promotes it in the database first (no invite code needed). */
export async function account(call: Call, db: Db, options: { admin?: boolean; wallet?: string; kyc?: "approved" } = {}): Promise<Account> {
  const registration = newRegistration();
  const registered = await call("POST", "/auth/register", { body: registration });
  assert.equal(registered.status, 201, registered.body?.message);
  const id = registered.body.data.user._id as string;
  if (options.admin) await db.execute(sql`update users set role = 'admin' where id = ${id}`);
  if (options.wallet) await db.execute(sql`update users set wallet_address = ${options.wallet.toLowerCase()} where id = ${id}`);
  if (options.kyc) await db.execute(sql`update users set kyc_status = ${options.kyc} where id = ${id}`);
  const login = await call("POST", "/auth/login", { body: { email: registration.email, password: registration.password } });
  assert.equal(login.status, 200, login.body?.message);
  return { id, token: login.body.data.token, email: registration.email, password: registration.password };
}

/** A connected client, or the handshake's error message. */
export function openSocket(url: string, token?: string): Promise<Socket> {
  const socket = connect(url, { auth: token === undefined ? {} : { token }, transports: ["websocket"], reconnection: false, forceNew: true });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** Everything a socket receives, in order, with a way to wait for an event. */
export function record(socket: Socket) {
  const events: { name: string; payload: any }[] = [];
  const waiters: { name: string; resolve: (payload: any) => void }[] = [];
  socket.onAny((name: string, payload: unknown) => {
    events.push({ name, payload });
    for (const waiter of waiters.filter((w) => w.name === name)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(payload);
    }
  });
  return {
    events,
    named: (name: string) => events.filter((event) => event.name === name).map((event) => event.payload),
    next(name: string, timeoutMs = 5000): Promise<any> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${name} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          name,
          resolve: (payload) => {
            clearTimeout(timer);
            resolve(payload);
          },
        });
      });
    },
    /** Resolves once `count` events of that name have arrived. */
    async count(name: string, count: number, timeoutMs = 5000): Promise<any[]> {
      const deadline = Date.now() + timeoutMs;
      while (events.filter((event) => event.name === name).length < count) {
        if (Date.now() > deadline) throw new Error(`${name}: ${events.filter((e) => e.name === name).length} of ${count} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return events.filter((event) => event.name === name).map((event) => event.payload);
    },
  };
}

/** The next `event` on a socket (e.g. "disconnect" with its reason), or an error after `timeoutMs`. */
export function nextOf(socket: Socket, event: string, timeoutMs = 5000): Promise<any> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, (value: unknown) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

export const settle = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes outbox rows the way the indexer does: inside the caller's transaction. */
export async function insertOutbox(db: Db, rows: { event: string; rooms: string[]; payload: Record<string, unknown>; kind?: "event" | "correction"; correctsId?: number }[]): Promise<number[]> {
  const ids: number[] = [];
  for (const row of rows) {
    const result = (await db.execute(sql`
      insert into chain_outbox (chain_id, block_number, tx_hash, log_index, event, rooms, payload, kind, corrects_id)
      values (31337, 1, ${"0x" + "ab".repeat(32)}, ${ids.length}, ${row.event}, ${sql.param(row.rooms)}::text[], ${JSON.stringify(row.payload)}::jsonb,
              ${row.kind ?? "event"}, ${row.correctsId ?? null})
      returning id`)) as unknown as { rows: { id: string | number }[] };
    ids.push(Number(result.rows[0].id));
  }
  return ids;
}
