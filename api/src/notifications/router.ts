import { Router } from "express";
import { z } from "zod";
import { ok } from "../http/envelope";
import { currentUser, requireAuth } from "../http/auth";
import { notFound } from "../http/errors";
import type { TokenService } from "../auth/tokens";
import type { UsersRepository } from "../users/repository";
import type { NotificationsRepository } from "./repository";
import { toWire } from "./wire";

const NOT_FOUND = "Notification not found";

/** Exported for the API docs, which describe the query with this same schema. */
export const listQuery = z.object({
  page: z.coerce.number().int().min(1).catch(1),
  limit: z.coerce.number().int().min(1).max(100).catch(20),
  unreadOnly: z
    .string()
    .optional()
    .transform((value) => value === "true" || value === "1"),
});

const uuid = z.uuid();

/** GET /notifications, PUT /notifications/:id/read, PUT /notifications/read-all — always the caller's own rows. */
export function createNotificationsRouter(deps: { repository: NotificationsRepository; tokens: TokenService; users: UsersRepository }): Router {
  const router = Router();
  router.use(requireAuth(deps.tokens, (id) => deps.users.findById(id)));

  router.get("/", async (req, res) => {
    const query = listQuery.parse({ page: req.query.page ?? 1, limit: req.query.limit ?? 20, unreadOnly: req.query.unreadOnly });
    const { rows, total, unread } = await deps.repository.page(currentUser(req).id, query);
    ok(res, {
      notifications: rows.map(toWire),
      unreadCount: unread,
      pagination: { page: query.page, limit: query.limit, total, totalPages: Math.ceil(total / query.limit) },
    });
  });

  router.put("/read-all", async (req, res) => {
    const updated = await deps.repository.markAllRead(currentUser(req).id);
    ok(res, { updated, unreadCount: 0 }, "All notifications marked as read");
  });

  router.put("/:id/read", async (req, res) => {
    // Another user's id answers exactly like a missing one, so ids cannot be probed.
    const id = uuid.safeParse(req.params.id);
    if (!id.success) throw notFound(NOT_FOUND);
    const row = await deps.repository.markRead(id.data, currentUser(req).id);
    if (!row) throw notFound(NOT_FOUND);
    ok(res, toWire(row), "Notification marked as read");
  });

  return router;
}
