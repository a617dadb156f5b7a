import type { ContactRequest } from "#domain/schemas/contact";
import type { ContactRepository } from "./repository";

export function createContactService(deps: { messages: ContactRepository }) {
  return {
    /** Lands in the admin inbox; no outside form service. */
    submit(input: ContactRequest, userId: string | null) {
      return deps.messages.insert({ ...input, phone: input.phone ?? null, userId });
    },
  };
}
export type ContactService = ReturnType<typeof createContactService>;
