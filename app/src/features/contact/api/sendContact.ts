import { useMutation } from "@tanstack/react-query";
import { contactRequestSchema, type ContactRequest } from "#domain/schemas/contact";
import { http, type Envelope } from "../../../lib/http";

export { contactRequestSchema };

export async function sendContact(input: ContactRequest): Promise<Envelope<unknown>> {
  const { data } = await http.post<Envelope<unknown>>("/contact", contactRequestSchema.parse(input));
  if (!data.success) throw new Error(data.message ?? "Failed");
  return data;
}

export function useSendContact() {
  return useMutation({ mutationFn: sendContact });
}
