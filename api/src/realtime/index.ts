import type { Server } from "socket.io";
import type { DatabaseHandle } from "#db/connect";
import type { AppConfig } from "../config/env";
import { createTokenService } from "../auth/tokens";
import { createUsersRepository } from "../users/repository";
import { createNotificationsRepository } from "../notifications/repository";
import { createNotifier } from "../notifications/service";
import type { Notifier } from "../notifications/notifier";
import { startOutboxDelivery, type OutboxDelivery } from "./outbox";
import { socketPublisher } from "./publisher";
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
  notifier: Notifier;
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

/** socket.io authentication and rooms, the Redis adapter, the notifier and the outbox delivery, on one io server. */
export async function startRealtime(deps: {
  io: Server;
  config: AppConfig;
  database: DatabaseHandle;
  logger?: Logger;
  options?: RealtimeOptions;
}): Promise<Realtime> {
  const { io, config, database } = deps;
  const options = deps.options ?? {};
  // Under KV_PREFIX like every other key: deployments sharing one Redis must not hear each other's broadcasts.
  const closeRedis = config.redisUrl ? await attachRedisAdapter(io, config.redisUrl, options.redisKey ?? `${config.kvPrefix}socket.io`) : null;
  const users = createUsersRepository(database.db);
  attachSocketHandlers(io, { tokens: createTokenService(config.jwtSecret), findUser: (id) => users.findById(id) });

  const publisher = socketPublisher(io);
  const notifications = createNotificationsRepository(database.db);
  const notifier = createNotifier({ db: database.db, publisher, repository: notifications });
  const outbox =
    options.outbox === false
      ? null
      : startOutboxDelivery({ db: database.db, kind: database.kind, publisher, notifications, pollMs: options.outboxPollMs, logger: deps.logger });

  return {
    notifier,
    sessions: socketSessions(io),
    outbox,
    stopDelivery: async () => outbox?.stop(),
    close: async () => closeRedis?.(),
  };
}
