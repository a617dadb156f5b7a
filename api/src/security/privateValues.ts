import { eq, inArray } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chatMessages, contactMessages, kycDocuments, kycSubmissions, loanEvents, loans, notifications, users } from "#db/schema";

/**
 * Fields another user may see by design, each for a reason: they are on the public chain or on a listed note's
 * public record. Everything else in a user's rows is that user's own.
 */
const PUBLIC_BY_DESIGN: Record<string, string[]> = {
  // The verified wallet owns notes on the public chain: ownership pages name it.
  users: ["walletAddress"],
  // A listed note's public record names its loan and shows its terms, status and chain transactions.
  loans: [
    "id",
    "loanNumber",
    "amount",
    "principal",
    "purpose",
    "rateBps",
    "termMonths",
    "status",
    "mintStatus",
    "listingStatus",
    "borrowerWallet",
    "mintTxHash",
    "nftTokenId",
    "nftTransactionHash",
    "listingTxHash",
    "noteStart",
    // A pledged NFT's collection is on the public chain: the allow-list and the escrow of its note name it.
    "collateralCollection",
  ],
  // A loan step's transaction is public on the chain; the loan it belongs to is named by the note.
  loanEvents: ["txHash", "loanId"],
  // A link names a page: a note's public page, or a loan, which the note's record names.
  notifications: ["link"],
};

/** Fields whose values come from a fixed set anyone may have (a kind, a status, a subject): they say nothing of whose. */
const CATEGORICAL: Record<string, string[]> = {
  users: ["role", "kycStatus"],
  kycSubmissions: ["status", "idDocumentType"],
  kycDocuments: ["kind", "mimeType"],
  notifications: ["type", "title"],
  contactMessages: ["subject"],
  chatMessages: ["sender", "source", "model"],
  loanEvents: ["action"],
  // A collateral's kind (nft, other); its description stays private.
  loans: ["collateral.type"],
};

/** Shorter strings say nothing about whose record they came from. */
const MIN_LENGTH = 3;
/** Below this length a value counts only as a whole JSON string ("/nft/1" is not a leak inside "/nft/12"). */
const WHOLE_BELOW = 12;

/** Whether a JSON text (lowercased) holds the value: whole when short, anywhere inside a string when long. */
export function showsValue(json: string, value: string): boolean {
  const quoted = JSON.stringify(value);
  return json.includes(value.length < WHOLE_BELOW ? quoted : quoted.slice(1, -1));
}

type Row = Record<string, unknown>;

/** Every row of a user's own records, by table. */
async function recordsOf(db: Db, userId: string): Promise<Record<string, Row[]>> {
  const ownLoans = await db.select().from(loans).where(eq(loans.userId, userId));
  const loanIds = ownLoans.map((loan) => loan.id);
  return {
    users: await db.select().from(users).where(eq(users.id, userId)),
    kycSubmissions: await db.select().from(kycSubmissions).where(eq(kycSubmissions.userId, userId)),
    kycDocuments: await db.select().from(kycDocuments).where(eq(kycDocuments.userId, userId)),
    notifications: await db.select().from(notifications).where(eq(notifications.userId, userId)),
    contactMessages: await db.select().from(contactMessages).where(eq(contactMessages.userId, userId)),
    chatMessages: await db.select().from(chatMessages).where(eq(chatMessages.userId, userId)),
    loans: ownLoans,
    loanEvents: loanIds.length ? await db.select().from(loanEvents).where(inArray(loanEvents.loanId, loanIds)) : [],
  };
}

/** The text values inside a field with where each sits: strings, and the strings inside a JSON object (an address, a collateral's "collateral.type"). */
function texts(value: unknown, path: string): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (value && typeof value === "object" && !(value instanceof Date)) return Object.entries(value).flatMap(([key, inner]) => texts(inner, `${path}.${key}`));
  return [];
}

function valuesOf(records: Record<string, Row[]>, skipPublic: boolean): Map<string, string> {
  const values = new Map<string, string>();
  for (const [table, rows] of Object.entries(records)) {
    const open = skipPublic ? [...(PUBLIC_BY_DESIGN[table] ?? []), ...(CATEGORICAL[table] ?? [])] : [];
    for (const row of rows) {
      for (const [field, value] of Object.entries(row)) {
        if (open.includes(field)) continue;
        for (const [path, text] of texts(value, field)) if (text.length >= MIN_LENGTH && !open.includes(path)) values.set(text.toLowerCase(), `${table}.${path}`);
      }
    }
  }
  return values;
}

/**
 * Every field value of `owner`'s records that none of `others` has in their own (a template text every user
 * gets, such as "KYC Approved!", proves nothing), keyed by the lowercased value, naming table and field.
 */
export async function privateValues(db: Db, owner: string, others: string[]): Promise<Map<string, string>> {
  const mine = valuesOf(await recordsOf(db, owner), true);
  for (const other of others) for (const value of valuesOf(await recordsOf(db, other), false).keys()) mine.delete(value);
  return mine;
}
