import { randomBytes } from "node:crypto";
import type { KeyValueStore } from "../kv/store";

/** Long enough for the browser's PDF viewer to load (and reload) the frame, short enough that a leaked URL is soon dead. */
export const VIEW_TICKET_TTL_MS = 5 * 60_000;
const TICKET = /^[A-Za-z0-9_-]{32}$/;

/**
 * A frame loads its document by URL, with no bearer token: a ticket, issued to someone the document may be shown
 * to, stands in for the token on that one document for a few minutes.
 */
export function createViewTickets(kv: KeyValueStore) {
  const key = (ticket: string) => `kyc-view:${ticket}`;
  return {
    async issue(documentId: string, userId: string): Promise<string> {
      const ticket = randomBytes(24).toString("base64url");
      await kv.set(key(ticket), JSON.stringify({ documentId, userId }), VIEW_TICKET_TTL_MS);
      return ticket;
    },
    /** The user the ticket was issued to, if it is alive and for this document. */
    async userFor(ticket: unknown, documentId: string): Promise<string | null> {
      if (typeof ticket !== "string" || !TICKET.test(ticket)) return null;
      const stored = await kv.get(key(ticket));
      if (!stored) return null;
      const grant = JSON.parse(stored) as { documentId: string; userId: string };
      return grant.documentId === documentId ? grant.userId : null;
    },
  };
}
