import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { chatHistoryKey } from "./keys";

const clearAnswerSchema = z.object({ deleted: z.number().int().min(0) });

/** DELETE /chatbot/clear: removes the signed-in user's whole history. */
export async function clearChatHistory(): Promise<number> {
  const { data } = await http.delete<Envelope<unknown>>("/chatbot/clear");
  return clearAnswerSchema.parse(data.data).deleted;
}

export function useClearChatHistory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clearChatHistory,
    onSuccess: () => queryClient.setQueryData(chatHistoryKey, []),
  });
}
