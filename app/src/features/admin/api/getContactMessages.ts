import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

const messageSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullish(),
  subject: z.string(),
  message: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type ContactMessage = z.infer<typeof messageSchema>;

/** GET /admin/contact: what visitors sent through the contact form, newest first. */
export async function getContactMessages(): Promise<ContactMessage[]> {
  const { data } = await http.get<Envelope<unknown>>("/admin/contact", { params: { limit: 100 } });
  return z.object({ messages: z.array(messageSchema) }).parse(data.data).messages;
}

export function useContactMessages() {
  return useQuery({ queryKey: adminKeys.contact, queryFn: getContactMessages, staleTime: 0, refetchInterval: 60_000 });
}
