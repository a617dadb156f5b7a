import type { Db } from "#db/connect";
import { ROOMS, SERVER_EVENTS } from "#domain/events";
import type { Publisher } from "../realtime/publisher";
import type { Notifier } from "./notifier";
import { createNotificationsRepository, type NotificationsRepository } from "./repository";
import { livePayload } from "./wire";

export interface NotifierDeps {
  db: Db;
  publisher: Publisher;
  repository?: NotificationsRepository;
}

export function createNotifier(deps: NotifierDeps): Notifier {
  const repository = deps.repository ?? createNotificationsRepository(deps.db);
  const { publisher } = deps;
  return {
    async notifyUser(userId, content, event) {
      const [row] = await repository.insertFor([userId], content);
      const room = ROOMS.user(userId);
      publisher.emit(room, SERVER_EVENTS.notificationNew, livePayload(row));
      if (event) publisher.emit(room, event.name, event.payload);
    },
    async storeForUser(tx, userId, content) {
      const [row] = await repository.insertFor([userId], content, tx);
      return { id: row.id, push: () => publisher.emit(ROOMS.user(userId), SERVER_EVENTS.notificationNew, livePayload(row)) };
    },
    async notifyAdmins(content, event) {
      const rows = await repository.insertFor(await repository.adminIds(), content);
      // Each admin's row has its own _id (marked read one by one), so it goes to that admin's own room.
      for (const row of rows) publisher.emit(ROOMS.user(row.userId), SERVER_EVENTS.notificationNew, livePayload(row));
      if (event) publisher.emit(ROOMS.admins, event.name, event.payload);
    },
    publish(room, event) {
      publisher.emit(room, event.name, event.payload);
    },
  };
}
