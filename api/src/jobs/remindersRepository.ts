import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "#db/connect";
import { chainNotes, loans, servicingReminders, servicingStates, users, type ReminderKind } from "#db/schema";

/** A loan with a note, as the reminder job reads it from the chain mirror, with who hears about it. */
export interface WatchedLoan {
  loanId: string;
  tokenId: bigint;
  principal: bigint;
  rateBps: number;
  termMonths: number;
  startTime: number;
  totalRepaid: bigint;
  feesPaidThrough: number;
  borrowerId: string;
  borrowerMuted: boolean;
  /** The account of the note's holder (the vault's depositor while deposited), when the holder is one of ours. */
  holderId: string | null;
  holderMuted: boolean;
}

export interface ServicingState {
  daysPastDue: number;
  lateInstallment: number | null;
}

/** One reminder's identity: it is given at most once. */
export interface ReminderKey {
  loanId: string;
  kind: ReminderKind;
  installment: number;
  recipientId: string;
}

export function createRemindersRepository(db: Db, chainId: number) {
  const holders = alias(users, "holders");
  return {
    /** Active notes: a repaid or defaulted one is told by its own status notice and needs no reminder. */
    async watched(): Promise<WatchedLoan[]> {
      return db
        .select({
          loanId: loans.id,
          tokenId: chainNotes.tokenId,
          principal: chainNotes.principal,
          rateBps: chainNotes.rateBps,
          termMonths: chainNotes.termMonths,
          startTime: chainNotes.startTime,
          totalRepaid: chainNotes.totalRepaid,
          feesPaidThrough: chainNotes.feesPaidThrough,
          borrowerId: loans.userId,
          borrowerMuted: users.remindersMuted,
          holderId: holders.id,
          holderMuted: sql<boolean>`coalesce(${holders.remindersMuted}, false)`,
        })
        .from(loans)
        .innerJoin(chainNotes, and(eq(chainNotes.chainId, chainId), sql`${chainNotes.tokenId} = ${loans.loanNumber}::numeric`))
        .innerJoin(users, eq(users.id, loans.userId))
        .leftJoin(holders, eq(holders.walletAddress, chainNotes.holder))
        .where(and(eq(loans.status, "active"), eq(chainNotes.status, "active")));
    },

    /** The loan's last seen state, its row locked for the caller's transaction (created at current if new). */
    async lockState(tx: Db, loanId: string): Promise<ServicingState> {
      await tx.insert(servicingStates).values({ loanId }).onConflictDoNothing();
      const [row] = await tx
        .select({ daysPastDue: servicingStates.daysPastDue, lateInstallment: servicingStates.lateInstallment })
        .from(servicingStates)
        .where(eq(servicingStates.loanId, loanId))
        .for("update");
      return row;
    },

    async saveState(tx: Db, loanId: string, state: ServicingState): Promise<void> {
      await tx
        .update(servicingStates)
        .set({ ...state, updatedAt: new Date() })
        .where(eq(servicingStates.loanId, loanId));
    },

    /** Records the key; answers its row id only when it was new (a reminder given before answers null). */
    async claim(tx: Db, key: ReminderKey): Promise<string | null> {
      const [row] = await tx.insert(servicingReminders).values(key).onConflictDoNothing().returning({ id: servicingReminders.id });
      return row?.id ?? null;
    },

    async attachNotification(tx: Db, reminderId: string, notificationId: string): Promise<void> {
      await tx.update(servicingReminders).set({ notificationId }).where(eq(servicingReminders.id, reminderId));
    },

    async inTransaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(tx as unknown as Db));
    },
  };
}

export type RemindersRepository = ReturnType<typeof createRemindersRepository>;
