import type { Server } from "socket.io";
import { ROOMS } from "#domain/events";

/** Ends the live sockets that a password change left holding a token the HTTP API already refuses. */
export interface SocketSessions {
  /** Disconnects every socket of the user whose token carries another password stamp than `current`, in every API process. */
  endStale(userId: string, current: string): void;
}

/** The sockets of one user opened with tokens of one password stamp (socket.ts joins it at the handshake). */
export const stampRoom = (userId: string, stamp: string) => `${ROOMS.user(userId)}:stamp:${stamp}`;

/** Through the socket.io adapter, so with Redis the sockets held by other API processes are ended too. */
export function socketSessions(io: Server): SocketSessions {
  return {
    endStale(userId, current) {
      io.in(ROOMS.user(userId)).except(stampRoom(userId, current)).disconnectSockets(true);
    },
  };
}

/** For an app built without sockets (createApp alone in a test): there is nothing to end. */
export const noSocketSessions: SocketSessions = { endStale() {} };
