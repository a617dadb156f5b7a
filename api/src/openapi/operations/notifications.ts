import { listQuery } from "../../notifications/router";
import type { OperationGroup } from "../types";

export const notificationsOperations: OperationGroup = {
  tag: "Notifications",
  description: "The signed-in user's notifications (also pushed over socket.io).",
  operations: {
    "GET /api/notifications": { summary: "My notifications, a page at a time", access: "user", query: listQuery },
    "PUT /api/notifications/read-all": { summary: "Mark all my notifications read", access: "user", body: { none: true } },
    "PUT /api/notifications/{id}/read": { summary: "Mark one notification read", description: "Another user's id answers as missing.", access: "user", body: { none: true } },
  },
};
