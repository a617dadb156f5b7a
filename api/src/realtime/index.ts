import type { Server } from "socket.io";
import type { DatabaseHandle } from "#db/connect";
import type { AppConfig } from "../config/env";
import type { TokenService } from "../auth/tokens";
import type { UsersRepository } from "../users/repository";
import type { NotificationsRepository } from "../notifications/repository";
import { startOutboxDelivery, type OutboxDelivery } from "./outbox";
import type { Publisher } from "./publisher";
import { attachRedisAdapter } from "./redis";
import { socketSessions, type SocketSessions } from "./sessions";
import { attachSocketHandlers } from "./socket";

export interface RealtimeOptions {
  /** Redis pub/sub channel prefix of the socket.io adapter (with REDIS_URL); tests give each run its own. */
  redisKey?: string;
  /** Deliver the indexer's outbox from this process (default true). */
  outbox?: boolean;
  /** Outbox poll interval, the fallback to LISTEN/NOTIFY. */
  outboxPollMs?: number;
}

export interface Realtime {
  /** Ends the sockets a password change made stale, in every API process. */
  sessions: SocketSessions;
  outbox: OutboxDelivery | null;
  /** Stops delivery before the sockets close, so nothing is claimed that cannot be sent. */
  stopDelivery(): Promise<void>;
  /** After io.close(): ends the adapter's Redis connections. */
  close(): Promise<void>;
}

interface Logger {
  warn(obj: unknown, msg?: string): void;
  debug?(obj: unknown, msg?: string): void;
}

/**
 * socket.io authentication and rooms, the Redis adapter and the outbox delivery, on one io server. The repositories
 * and the publisher (socketPublisher(io), which the notifier also pushes through) come from the composition root.
 */
export async function startRealtime(deps: {
  io: Server;
  config: AppConfig;
  database: DatabaseHandle;
  tokens: TokenService;
  users: Pick<UsersRepository, "findById">;
  notifications: NotificationsRepository;
  publisher: Publisher;
  logger?: Logger;
  options?: RealtimeOptions;
}): Promise<Realtime> {
  const { io, config, database, users, publisher, notifications } = deps;
  const options = deps.options ?? {};
  // Under KV_PREFIX like every other key: deployments sharing one Redis must not hear each other's broadcasts.
  const closeRedis = config.redisUrl ? await attachRedisAdapter(io, config.redisUrl, options.redisKey ?? `${config.kvPrefix}socket.io`) : null;
  attachSocketHandlers(io, { tokens: deps.tokens, findUser: (id) => users.findById(id) });

  const outbox = options.outbox === false ? null : startOutboxDelivery({ db: database.db, kind: database.kind, publisher, notifications, pollMs: options.outboxPollMs, logger: deps.logger });

  return {
    sessions: socketSessions(io),
    outbox,
    stopDelivery: async () => outbox?.stop(),
    close: async () => closeRedis?.(),
  };
}
