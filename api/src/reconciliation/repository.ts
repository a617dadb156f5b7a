import { eq, inArray, ne, or, isNotNull } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chainCollateral, chainCredits, chainCursors, chainNotes, loans } from "#db/schema";

/** What the database says of the notes: the mirror's rows and cursor, and the off-chain loans that have or had a note. */
export interface DatabaseSnapshot {
  mirrorBlock: number | null;
  notes: (typeof chainNotes.$inferSelect)[];
  collateral: (typeof chainCollateral.$inferSelect)[];
  credits: (typeof chainCredits.$inferSelect)[];
  loans: (typeof loans.$inferSelect)[];
}

export function createReconciliationRepository(db: Db, chainId: number) {
  return {
    /**
     * One snapshot (repeatable read): the indexer commits a batch of mirror rows and the loan changes they cause in one
     * transaction, so reading them apart could catch half a batch and report a difference that never existed.
     */
    async snapshot(): Promise<DatabaseSnapshot> {
      return db.transaction(
        async (tx) => {
          const [cursor] = await tx.select({ block: chainCursors.blockNumber }).from(chainCursors).where(eq(chainCursors.chainId, chainId));
          const notes = await tx.select().from(chainNotes).where(eq(chainNotes.chainId, chainId));
          const collateral = await tx.select().from(chainCollateral).where(eq(chainCollateral.chainId, chainId));
          const credits = await tx.select().from(chainCredits).where(eq(chainCredits.chainId, chainId));
          const ids = notes.map((note) => note.tokenId);
          // Every loan that has, had or is getting a note, and any whose number the mirror knows as a note.
          const rows = await tx
            .select()
            .from(loans)
            .where(or(ne(loans.mintStatus, "none"), isNotNull(loans.nftTokenId), inArray(loans.status, ["active", "completed", "defaulted"]), ...(ids.length ? [inArray(loans.loanNumber, ids)] : [])));
          return { mirrorBlock: cursor?.block ?? null, notes, collateral, credits, loans: rows };
        },
        { isolationLevel: "repeatable read", accessMode: "read only" },
      );
    },

    /** Loans by number, for notes only the chain knows (their loan may have been left without a mint status). */
    async loansNumbered(numbers: bigint[]) {
      if (numbers.length === 0) return [];
      return db.select().from(loans).where(inArray(loans.loanNumber, numbers));
    },
  };
}
export type ReconciliationRepository = ReturnType<typeof createReconciliationRepository>;
