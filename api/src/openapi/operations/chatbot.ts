import { chatHistorySchema, chatReplySchema } from "#domain/schemas/chatbot";
import type { OperationGroup } from "../types";

export const chatbotOperations: OperationGroup = {
  tag: "Chatbot",
  description: "The assistant: answers from the knowledge base and the user's own data, or from a configured model.",
  operations: {
    "POST /api/chatbot/message": { summary: "Ask the assistant", access: "user", data: chatReplySchema, example: { message: "What is the status of my loan?" } },
    "GET /api/chatbot/history": { summary: "My conversation", access: "user", data: chatHistorySchema },
    "DELETE /api/chatbot/clear": { summary: "Clear my conversation", access: "user", body: { none: true } },
  },
};
