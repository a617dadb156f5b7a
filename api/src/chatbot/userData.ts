import { and, desc, eq, or, sql } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chainCredits, chainNotes, chainVaultPositions, kycSubmissions, loans, type ChainNote, type KycSubmissionRow, type LoanRow } from "#db/schema";

export interface LoanWithNote {
  loan: LoanRow;
  /** The chain mirror's note: terms, start and repaid amount as the contract has them. */
  note: ChainNote | null;
}

export interface HeldNote {
  note: ChainNote;
  /** True when the note sits in the vault on the user's behalf. */
  vaulted: boolean;
}

/** The signed-in user's own records the assistant may talk about; every query is scoped to that user. */
export function createChatUserData(db: Db, chainId: number) {
  return {
    /** The user's loans, newest first, with their notes from the mirror. */
    async loans(userId: string, limit = 20): Promise<LoanWithNote[]> {
      const rows = await db
        .select({ loan: loans, note: chainNotes })
        .from(loans)
        .leftJoin(chainNotes, and(eq(chainNotes.chainId, chainId), sql`${chainNotes.tokenId} = ${loans.loanNumber}::numeric`))
        .where(eq(loans.userId, userId))
        .orderBy(desc(loans.createdAt))
        .limit(limit);
      return rows.map((row) => ({ loan: row.loan, note: row.note ?? null }));
    },

    async latestKycSubmission(userId: string): Promise<KycSubmissionRow | undefined> {
      const [row] = await db.select().from(kycSubmissions).where(eq(kycSubmissions.userId, userId)).orderBy(desc(kycSubmissions.createdAt)).limit(1);
      return row;
    },

    /** Live notes the wallet holds, directly or through the vault. */
    async heldNotes(wallet: string): Promise<HeldNote[]> {
      const account = wallet.toLowerCase();
      const rows = await db
        .select({ note: chainNotes, vaulted: sql<boolean>`coalesce(${chainVaultPositions.active}, false)` })
        .from(chainNotes)
        .leftJoin(chainVaultPositions, and(eq(chainVaultPositions.chainId, chainNotes.chainId), eq(chainVaultPositions.tokenId, chainNotes.tokenId), eq(chainVaultPositions.active, true)))
        .where(and(eq(chainNotes.chainId, chainId), eq(chainNotes.burned, false), or(eq(chainNotes.holder, account), eq(chainNotes.owner, account))))
        .orderBy(chainNotes.tokenId);
      return rows.map((row) => ({ note: row.note, vaulted: Boolean(row.vaulted) }));
    },

    /** Repayments credited to the wallet and not yet withdrawn. */
    async pendingCredits(wallet: string): Promise<{ credited: bigint; withdrawn: bigint }> {
      const [row] = await db
        .select()
        .from(chainCredits)
        .where(and(eq(chainCredits.chainId, chainId), eq(chainCredits.account, wallet.toLowerCase())))
        .limit(1);
      return { credited: row?.credited ?? 0n, withdrawn: row?.withdrawn ?? 0n };
    },
  };
}
export type ChatUserData = ReturnType<typeof createChatUserData>;
