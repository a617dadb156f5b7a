import { Router, type Request } from "express";
import type { Logger } from "pino";
import type { Address, PublicClient } from "viem";
import type { Db } from "#db/connect";
import { CHAT_MESSAGES, chatMessageRequestSchema, type ChatHistoryMessage } from "#domain/schemas/chatbot";
import type { TokenService } from "../auth/tokens";
import { readGracePeriod } from "../chain/gracePeriod";
import { ok } from "../http/envelope";
import { currentUser, requireAuth } from "../http/auth";
import { rateLimit, type RateLimitRule } from "../http/rateLimit";
import { validate } from "../http/validate";
import type { KeyValueStore } from "../kv/store";
import type { UsersRepository } from "../users/repository";
import { createKnowledgeAnswerer } from "./knowledgeAnswer";
import type { LlmConfig } from "./llm";
import { createChatRepository } from "./repository";
import { createChatbotService } from "./service";
import { createChatUserData } from "./userData";
import { readDeployment } from "../config/deployment";

/** Each user may ask this many questions per minute, counted in the shared key-value store. */
export const CHATBOT_RATE_LIMIT: RateLimitRule = { max: 20, windowMs: 60_000 };

export interface ChatbotRouterDeps {
  db: Db;
  kv: KeyValueStore;
  tokens: TokenService;
  users: UsersRepository;
  chainId: number;
  /** Where the deployment record lives: it names the treasury, which the answers call by name. */
  dataDir?: string;
  /** Reads LoanNote's grace period, which answers about overdue and defaulted loans speak of. */
  publicClient?: PublicClient;
  llm?: LlmConfig;
  limit?: RateLimitRule;
  now?: () => Date;
  logger?: Pick<Logger, "warn">;
}

/** /api/chatbot: ask, read and clear one's own history; signed-in users only. */
export function createChatbotRouter(deps: ChatbotRouterDeps): Router {
  const repository = createChatRepository(deps.db);
  const service = createChatbotService({
    repository,
    userData: createChatUserData(deps.db, deps.chainId),
    knowledge: createKnowledgeAnswerer(),
    llm: deps.llm,
    treasury: async () => (deps.dataDir ? ((await readDeployment(deps.dataDir, deps.chainId))?.treasury ?? null) : null),
    gracePeriod: async () => {
      const { dataDir, publicClient } = deps;
      if (!dataDir || !publicClient) return null;
      const deployment = await readDeployment(dataDir, deps.chainId);
      return deployment ? readGracePeriod(publicClient, deployment.contracts.loanNote as Address) : null;
    },
    now: deps.now ?? (() => new Date()),
    logger: deps.logger,
  });
  const router = Router();
  router.use(requireAuth(deps.tokens, (id) => deps.users.findById(id)));

  const perUser = (req: Request) => `user:${currentUser(req).id}`;
  router.post("/message", rateLimit(deps.kv, { name: "chatbot", ...(deps.limit ?? CHATBOT_RATE_LIMIT), key: perUser }), validate(chatMessageRequestSchema), async (req, res) => {
    const reply = await service.ask(currentUser(req), req.body.message);
    ok(res, reply);
  });

  router.get("/history", async (req, res) => {
    const rows = await repository.history(currentUser(req).id);
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
    const deleted = await repository.clear(currentUser(req).id);
    ok(res, { deleted }, CHAT_MESSAGES.cleared);
  });

  return router;
}
