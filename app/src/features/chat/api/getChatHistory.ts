import { useQuery } from "@tanstack/react-query";
import { chatHistorySchema, type ChatHistoryMessage } from "#domain/schemas/chatbot";
import { http, type Envelope } from "../../../lib/http";
import { chatHistoryKey } from "./keys";

/** GET /chatbot/history: the signed-in user's messages, oldest first. */
export async function getChatHistory(): Promise<ChatHistoryMessage[]> {
  const { data } = await http.get<Envelope<unknown>>("/chatbot/history");
  return chatHistorySchema.parse(data.data).messages;
}

/** Fetched when the widget first opens, and kept: the widget appends to it as the conversation goes. */
export function useChatHistory(enabled: boolean) {
  return useQuery({ queryKey: chatHistoryKey, queryFn: getChatHistory, enabled, staleTime: Infinity, retry: 1 });
}
