import { Router } from "express";
import { CONTACT_MESSAGES, contactRequestSchema } from "#domain/schemas/contact";
import { ok } from "../http/envelope";
import { validate } from "../http/validate";
import { paging } from "../http/paging";
import { optionalAuth, requireAdmin, requireAuth } from "../http/auth";
import { rateLimit, type RateLimitRule } from "../http/rateLimit";
import type { KeyValueStore } from "../kv/store";
import type { TokenService } from "../auth/tokens";
import type { UsersRepository } from "../users/repository";
import type { ContactRepository } from "./repository";
import type { ContactService } from "./service";

export function createContactRouter(deps: { service: ContactService; messages: ContactRepository; tokens: TokenService; users: UsersRepository; kv: KeyValueStore; limit: RateLimitRule }): Router {
  const findUser = (id: string) => deps.users.findById(id);
  const router = Router();

  router.post("/", rateLimit(deps.kv, { name: "contact", ...deps.limit }), optionalAuth(deps.tokens, findUser), validate(contactRequestSchema), async (req, res) => {
    const row = await deps.service.submit(req.body, req.user?.id ?? null);
    ok(res, { _id: row.id, createdAt: row.createdAt.toISOString() }, CONTACT_MESSAGES.success, 201);
  });

  // The admin inbox the messages land in.
  router.get("/", requireAuth(deps.tokens, findUser), requireAdmin, async (req, res) => {
    const { limit, offset } = paging(req.query, { limit: 50, maxLimit: 200 });
    const rows = await deps.messages.list(limit, offset);
    ok(res, {
      messages: rows.map((row) => ({
        _id: row.id,
        name: row.name,
        email: row.email,
        phone: row.phone,
        subject: row.subject,
        message: row.message,
        userId: row.userId,
        read: row.readAt !== null,
        createdAt: row.createdAt.toISOString(),
      })),
    });
  });

  return router;
}
