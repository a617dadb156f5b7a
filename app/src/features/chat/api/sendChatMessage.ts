import { useMutation } from "@tanstack/react-query";
import { chatMessageRequestSchema, chatReplySchema, type ChatReply } from "#domain/schemas/chatbot";
import { http, type Envelope } from "../../../lib/http";

/** POST /chatbot/message {message}: the reply with its timestamp and who answered. */
export async function sendChatMessage(message: string): Promise<ChatReply> {
  const body = chatMessageRequestSchema.parse({ message });
  const { data } = await http.post<Envelope<unknown>>("/chatbot/message", body);
  return chatReplySchema.parse(data.data);
}

export function useSendChatMessage() {
  return useMutation({ mutationFn: sendChatMessage });
}
