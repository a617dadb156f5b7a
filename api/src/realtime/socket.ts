import type { Server, Socket } from "socket.io";
import type { UserRow } from "#db/schema";
import { CLIENT_EVENTS, ROOMS, SERVER_EVENTS } from "#domain/events";
import type { TokenService } from "../auth/tokens";
import { MESSAGES } from "../http/errors";
import { stampRoom } from "./sessions";
import { SIMULATE_EVENTS, simulatedEvents } from "./simulate";

export interface SocketUser {
  id: string;
  role: string;
  /** The token's password stamp: a password change ends the sockets of every other stamp (sessions.ts). */
  stamp: string;
}

export interface SocketDeps {
  tokens: TokenService;
  findUser(id: string): Promise<UserRow | undefined>;
  /** Events a socket may send per second before the rest are dropped. */
  eventsPerSecond?: number;
}

/** The handshake token: socket.io's `auth.token` (the app), or an Authorization header (other clients). */
function handshakeToken(socket: Socket): string | null {
  const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  if (typeof token === "string" && token) return token.replace(/^Bearer\s+/i, "");
  const header = socket.handshake.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match ? match[1] : null;
}

/** Same rule as the HTTP bearer (http/auth.ts): signed by us, unexpired, user exists, password stamp current. */
async function authenticate(socket: Socket, deps: SocketDeps): Promise<SocketUser> {
  const token = handshakeToken(socket);
  if (!token) throw new Error(MESSAGES.unauthenticated);
  const claims = await deps.tokens.verify(token);
  const user = claims ? await deps.findUser(claims.userId) : undefined;
  if (!user || !deps.tokens.current(user, claims!.stamp)) throw new Error(MESSAGES.badToken);
  return { id: user.id, role: user.role, stamp: claims!.stamp };
}

/** A second's worth of events per socket: the test page's buttons must not become a way to flood the server. */
function limiter(perSecond: number) {
  let windowStart = 0;
  let used = 0;
  return () => {
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      used = 0;
    }
    used += 1;
    return used <= perSecond;
  };
}

/** Authentication, rooms and the client events on an io server. */
export function attachSocketHandlers(io: Server, deps: SocketDeps): void {
  io.use((socket, next) => {
    authenticate(socket, deps).then(
      (user) => {
        socket.data.user = user;
        next();
      },
      (error: Error) => next(error),
    );
  });

  io.on("connection", (socket) => {
    const user = socket.data.user as SocketUser;
    void socket.join([ROOMS.user(user.id), stampRoom(user.id, user.stamp)]);
    if (user.role === "admin") void socket.join(ROOMS.admins);
    socket.emit(SERVER_EVENTS.connectionConfirmed, { userId: user.id, role: user.role });

    const allowed = limiter(deps.eventsPerSecond ?? 20);
    const on = (event: string, handler: (data: unknown, ack?: (value: unknown) => void) => void) =>
      socket.on(event, (data: unknown, ack?: unknown) => {
        if (!allowed()) return;
        // A client may send an ack callback as the only argument.
        if (typeof data === "function") return handler(undefined, data as (value: unknown) => void);
        handler(data, typeof ack === "function" ? (ack as (value: unknown) => void) : undefined);
      });

    on(CLIENT_EVENTS.subscribeMarketplace, (_data, ack) => {
      void socket.join(ROOMS.marketplace);
      ack?.({ ok: true, room: ROOMS.marketplace });
    });
    // Every loan request is someone's personal data: only admins may watch them all.
    on(CLIENT_EVENTS.subscribeLoans, (_data, ack) => {
      if (user.role !== "admin") return ack?.({ ok: false, message: MESSAGES.forbidden });
      void socket.join(ROOMS.loans);
      ack?.({ ok: true, room: ROOMS.loans });
    });
    on(CLIENT_EVENTS.ping, (_data, ack) => {
      const pong = { timestamp: new Date().toISOString() };
      socket.emit(SERVER_EVENTS.pong, pong);
      ack?.(pong);
    });

    on("test:message", (data, ack) => {
      const response = { message: "Test message received", echo: data ?? null, userId: user.id, timestamp: new Date().toISOString() };
      socket.emit("test:response", response);
      ack?.(response);
    });
    for (const kind of SIMULATE_EVENTS) {
      on(kind, (data, ack) => {
        const events = simulatedEvents(kind, data);
        // socket.emit reaches this socket only: no room, no other tab, no other user, nothing stored.
        for (const event of events) socket.emit(event.name, event.payload);
        ack?.({ ok: true, sent: events.map((event) => event.name) });
      });
    }
  });
}
