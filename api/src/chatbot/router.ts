import { Router, type Request } from "express";
import { CHAT_MESSAGES, chatMessageRequestSchema, type ChatHistoryMessage } from "#domain/schemas/chatbot";
import type { TokenService } from "../auth/tokens";
import { ok } from "../http/envelope";
import { currentUser, requireAuth } from "../http/auth";
import { rateLimit, type RateLimitRule } from "../http/rateLimit";
import { validate } from "../http/validate";
import type { KeyValueStore } from "../kv/store";
import type { UsersRepository } from "../users/repository";
import type { ChatbotService } from "./service";

/** Each user may ask this many questions per minute, counted in the shared key-value store. */
export const CHATBOT_RATE_LIMIT: RateLimitRule = { max: 20, windowMs: 60_000 };

export interface ChatbotRouterDeps {
  service: ChatbotService;
  kv: KeyValueStore;
  tokens: TokenService;
  users: UsersRepository;
  limit?: RateLimitRule;
}

/** /api/chatbot: ask, read and clear one's own history; signed-in users only. */
export function createChatbotRouter(deps: ChatbotRouterDeps): Router {
  const { service } = deps;
  const router = Router();
  router.use(requireAuth(deps.tokens, (id) => deps.users.findById(id)));

  const perUser = (req: Request) => `user:${currentUser(req).id}`;
  router.post("/message", rateLimit(deps.kv, { name: "chatbot", ...(deps.limit ?? CHATBOT_RATE_LIMIT), key: perUser }), validate(chatMessageRequestSchema), async (req, res) => {
    const reply = await service.ask(currentUser(req), req.body.message);
    ok(res, reply);
  });

  router.get("/history", async (req, res) => {
    const rows = await service.history(currentUser(req).id);
    const messages: ChatHistoryMessage[] = rows.map((row) => ({
      id: row.id,
      content: row.content,
      sender: row.sender,
      timestamp: row.createdAt.toISOString(),
      source: row.source,
      model: row.model,
    }));
    ok(res, { messages });
  });

  router.delete("/clear", async (req, res) => {
    const deleted = await service.clear(currentUser(req).id);
    ok(res, { deleted }, CHAT_MESSAGES.cleared);
  });

  return router;
}
