import { displayUsd } from "#domain/money";
import { dueDate, monthlyPayment, payoffAmount, type LoanTerms } from "#domain/schedule";
import type { Db } from "#db/connect";
import { chainCredits, chainNotes, kycSubmissions, loans, users, type UserRow } from "#db/schema";

export const CHAIN_ID = 31337;
/** The clock the seeded records are read at: 45 days into loan #1001, one installment paid. */
export const NOW = new Date("2026-06-15T12:00:00Z");
const START = BigInt(Math.floor(NOW.getTime() / 1000)) - 45n * 86_400n;
export const TREASURY = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const OTHER_BORROWER = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";

export const ACTIVE_TERMS: LoanTerms = { principal: 10_000_000_000n, rateBps: 1200, termMonths: 12, start: START };
const INSTALLMENT = monthlyPayment(ACTIVE_TERMS.principal, ACTIVE_TERMS.rateBps, ACTIVE_TERMS.termMonths);
const CREDITED = 1_234_560_000n;
const WITHDRAWN = 200_000_000n;

/** What the personal answers must state, as the user would read them. */
export const EXPECTED: Record<string, string> = {
  nextPayment: displayUsd(INSTALLMENT),
  nextDue: new Date(Number(dueDate(ACTIVE_TERMS, 2)) * 1000).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }),
  payoff: displayUsd(payoffAmount(ACTIVE_TERMS, INSTALLMENT, BigInt(Math.floor(NOW.getTime() / 1000)))),
  credits: displayUsd(CREDITED - WITHDRAWN),
};

/**
 * Ada: KYC rejected with a reason, an active loan #1001 with one installment repaid on-chain, a rejected
 * loan #1002, a pending loan #1003, note #2001 bought from the marketplace and repayments to withdraw.
 */
export async function seedAda(db: Db, suffix = ""): Promise<UserRow> {
  const wallet = `0x${"ada".padEnd(37, "0")}${suffix.padStart(3, "0")}`.toLowerCase();
  const [ada] = await db
    .insert(users)
    .values({ firstName: "Ada", lastName: "Lovelace", email: `ada${suffix}@example.com`, walletAddress: wallet, kycStatus: "rejected" })
    .returning();
  await db.insert(kycSubmissions).values({
    userId: ada.id,
    idDocumentType: "passport",
    status: "rejected",
    reviewedAt: new Date("2026-06-01T10:00:00Z"),
    rejectionReason: "Proof of address is older than 3 months",
  });
  const base = { userId: ada.id, purpose: "business", rateBps: 1200, termMonths: 12 };
  const n = (k: number) => BigInt(k) + BigInt(Number(suffix || 0) * 10_000);
  await db.insert(loans).values([
    {
      ...base,
      loanNumber: n(1001),
      amount: 10_000_000_000n,
      principal: 10_000_000_000n,
      status: "active",
      mintStatus: "minted",
      noteStart: START,
      nftTokenId: String(n(1001)),
      createdAt: new Date("2026-04-20T09:00:00Z"),
    },
    {
      ...base,
      loanNumber: n(1002),
      amount: 500_000_000_000n,
      status: "rejected",
      rejectionReason: "Income too low for the requested amount",
      rejectionDate: new Date("2026-05-10T09:00:00Z"),
      createdAt: new Date("2026-05-05T09:00:00Z"),
    },
    { ...base, loanNumber: n(1003), amount: 2_500_000_000n, status: "pending", createdAt: new Date("2026-06-10T09:00:00Z") },
  ]);
  const note = {
    chainId: CHAIN_ID,
    rateBps: 1200,
    termMonths: 12,
    startTime: Number(START),
    originTxHash: "0x" + "1".repeat(64),
    originBlock: 10,
    updatedBlock: 12,
  };
  await db.insert(chainNotes).values([
    { ...note, tokenId: n(1001), borrower: wallet, owner: TREASURY, holder: TREASURY, principal: 10_000_000_000n, totalRepaid: INSTALLMENT },
    { ...note, tokenId: n(2001), borrower: OTHER_BORROWER, owner: wallet, holder: wallet, principal: 5_000_000_000n },
  ]);
  await db.insert(chainCredits).values({ chainId: CHAIN_ID, account: wallet, credited: CREDITED, withdrawn: WITHDRAWN, updatedBlock: 12 });
  return ada;
}

export interface EvalQuestion {
  question: string;
  facts: (string | string[])[];
  /** Asked just before, in the same conversation: the answer must fit the new question, not the last one. */
  after?: string;
  /** What the answer must not say (the wrong subject it used to answer). */
  absent?: string[];
}

/** Dashes and apostrophes vary in writing; the facts are about content, not typography. */
const fold = (text: string) => text.toLowerCase().replace(/[–—]/g, "-").replace(/[’‘]/g, "'");

/** The facts an answer lacks, then the forbidden words it says ("says: …"). */
export function wrongFacts(answer: string, { facts, absent = [] }: Pick<EvalQuestion, "facts" | "absent">): string[] {
  const text = fold(answer);
  return [...missingFacts(answer, facts), ...absent.filter((word) => text.includes(fold(word))).map((word) => `says: ${word}`)];
}

function missingFacts(answer: string, facts: (string | string[])[]): string[] {
  const text = fold(answer);
  const fill = (fact: string) => fact.replace(/\{\{(\w+)\}\}/g, (_, key: string) => EXPECTED[key] ?? `{{${key}}}`);
  return facts
    .map((fact) => (Array.isArray(fact) ? fact.map(fill) : [fill(fact)]))
    .filter((alternatives) => !alternatives.some((alt) => text.includes(fold(alt))))
    .map((alternatives) => alternatives.join(" | "));
}
