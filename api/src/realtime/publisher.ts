import type { Server } from "socket.io";

/** Sends an event to rooms; with the Redis adapter every API process's sockets in those rooms receive it. */
export interface Publisher {
  emit(rooms: string | string[], name: string, payload: unknown): void;
}

export function socketPublisher(io: Server): Publisher {
  return {
    emit(rooms, name, payload) {
      if (Array.isArray(rooms) && rooms.length === 0) return;
      io.to(rooms).emit(name, payload);
    },
  };
}

/** For an app built without sockets (createApp alone in a test): rows are still stored. */
export const silentPublisher: Publisher = { emit() {} };
