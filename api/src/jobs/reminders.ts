import type { Address } from "viem";
import { periodicJob, type PeriodicJob } from "./periodicJob";
import { defaultableAt, type ServicingParams } from "#domain/lateFees";
import { DAY_SECONDS, PERIOD_SECONDS, dueDate, installmentsPaid, scheduleRows, totalDue, type LoanTerms } from "#domain/schedule";
import { pastDue } from "#domain/servicing";
import type { ReminderKind } from "#db/schema";
import type { Db } from "#db/connect";
import { readServicingParams } from "../chain/servicingParams";
import type { ChainGateway } from "../chain/gateway";
import type { NotificationContent, Notifier } from "../notifications/notifier";
import { REMINDER_TEXTS, type RemindedLoan } from "../notifications/texts";
import type { RemindersRepository, ServicingState, WatchedLoan } from "./remindersRepository";

interface Logger {
  warn(obj: unknown, msg?: string): void;
}

/** How long before a due date the borrower is reminded of it. */
export const DUE_SOON_SECONDS = 3n * DAY_SECONDS;
/** How long before a default becomes possible (days past due, or maturity plus grace) the borrower is warned. */
export const DEFAULT_WARNING_SECONDS = 30n * DAY_SECONDS;

/** A reminder the schedule calls for now: who gets it, what it says, and the installment that keys it (0: the loan). */
export interface DueReminder {
  kind: ReminderKind;
  installment: number;
  to: "borrower" | "holder";
  content: NotificationContent;
}

/**
 * What one loan calls for at the chain's clock `now`, given the state the job last saw it in: the reminders (each
 * given once, by its key) and the state to remember. Pure: the same loan, state and clock always answer the same.
 */
export function remindersDue(
  loan: WatchedLoan,
  previous: ServicingState,
  now: bigint,
  params: Pick<ServicingParams, "gracePeriod" | "defaultAfterDays">,
): { reminders: DueReminder[]; state: ServicingState } {
  const terms: LoanTerms = { principal: loan.principal, rateBps: loan.rateBps, termMonths: loan.termMonths, start: BigInt(loan.startTime) };
  const repaid = loan.totalRepaid;
  const named: RemindedLoan = { tokenId: loan.tokenId.toString(), loanId: loan.loanId };
  const reminders: DueReminder[] = [];
  const give = (to: DueReminder["to"], kind: ReminderKind, installment: number, content: NotificationContent) => reminders.push({ to, kind, installment, content });

  if (loan.noteStatus === "defaulted") {
    const unpaid = totalDue(terms) > repaid ? totalDue(terms) - repaid : 0n;
    give("borrower", "defaulted", 0, REMINDER_TEXTS.defaulted(named, unpaid));
    give("holder", "holder_defaulted", 0, REMINDER_TEXTS.holderDefaulted(named, unpaid));
    return { reminders, state: previous };
  }

  const n = loan.termMonths;
  const paid = installmentsPaid(terms, repaid);
  const elapsed = now > terms.start ? now - terms.start : 0n;
  const fallenDue = Math.min(n, Number(elapsed / PERIOD_SECONDS));
  const due = pastDue(terms, repaid, now);
  const rows = scheduleRows(terms);

  // The next installment to fall due, unpaid, within three days of its due date.
  const next = fallenDue + 1;
  if (next <= n && next > paid && dueDate(terms, next) - DUE_SOON_SECONDS <= now) {
    const through = rows.slice(0, next).reduce((sum, row) => sum + row.payment, 0n);
    const owed = through - repaid < rows[next - 1].payment ? through - repaid : rows[next - 1].payment;
    give("borrower", "due_soon", next, REMINDER_TEXTS.dueSoon(named, next, owed, dueDate(terms, next)));
  }

  let state: ServicingState = { daysPastDue: due.daysPastDue, lateInstallment: previous.lateInstallment };
  if (due.daysPastDue > 0) {
    // Payments are cumulative, so with anything past due the installment fallen due last is unpaid: it was missed.
    give("borrower", "missed", fallenDue, REMINDER_TEXTS.missed(named, fallenDue, due.amountPastDue, dueDate(terms, fallenDue)));
    if (previous.daysPastDue === 0 || previous.lateInstallment === null) {
      const first = paid + 1;
      state = { ...state, lateInstallment: first };
      give("holder", "holder_late", first, REMINDER_TEXTS.holderLate(named, first, dueDate(terms, first)));
    }
  } else if (previous.daysPastDue > 0) {
    // Cured: keyed by the installment whose miss began the late spell, so each spell's cure is told once.
    const spell = previous.lateInstallment ?? 0;
    give("borrower", "cured", spell, REMINDER_TEXTS.cured(named));
    give("holder", "holder_cured", spell, REMINDER_TEXTS.holderCured(named));
    state = { daysPastDue: 0, lateInstallment: null };
  }

  const defaultFrom = defaultableAt({ terms, repaid }, params);
  if (now >= defaultFrom - DEFAULT_WARNING_SECONDS && now < defaultFrom) {
    give("borrower", "default_soon", 0, REMINDER_TEXTS.defaultSoon(named, defaultFrom));
  }
  return { reminders, state };
}

/** A pass over every loan with a note answers how many reminders were stored (muted ones count as given, not sent). */
export type ReminderJob = PeriodicJob<{ given: number; sent: number }>;

/**
 * The reminder job: on each tick it reads every loan with a note from the chain mirror, judges it by the chain's
 * clock, and gives the reminders its schedule calls for. Each reminder's key row and its notification are written in
 * one transaction, the notification only when the key is new, and the loan's state row is locked meanwhile: so a
 * reminder goes out once however many API processes run the job and however often they restart. Pushes follow the
 * commit.
 */
export function createReminderJob(deps: { repo: RemindersRepository; chain: ChainGateway; notifier: Notifier; logger?: Logger }): ReminderJob {
  const { repo, chain, notifier } = deps;

  async function remindLoan(loan: WatchedLoan, now: bigint, params: ServicingParams): Promise<{ given: number; sent: number }> {
    const pushes: (() => void)[] = [];
    const result = await repo.inTransaction(async (tx: Db) => {
      const previous = await repo.lockState(tx, loan.loanId);
      const { reminders, state } = remindersDue(loan, previous, now, params);
      let given = 0;
      for (const reminder of reminders) {
        const recipientId = reminder.to === "borrower" ? loan.borrowerId : loan.holderId;
        // No account holds the note (the treasury, an outside wallet), or the borrower holds their own note.
        if (!recipientId || (reminder.to === "holder" && recipientId === loan.borrowerId)) continue;
        const reminderId = await repo.claim(tx, { loanId: loan.loanId, kind: reminder.kind, installment: reminder.installment, recipientId });
        if (!reminderId) continue;
        given += 1;
        const muted = reminder.to === "borrower" ? loan.borrowerMuted : loan.holderMuted;
        if (muted) continue;
        const stored = await notifier.storeForUser(tx, recipientId, reminder.content);
        await repo.attachNotification(tx, reminderId, stored.id);
        pushes.push(stored.push);
      }
      if (state.daysPastDue !== previous.daysPastDue || state.lateInstallment !== previous.lateInstallment) await repo.saveState(tx, loan.loanId, state);
      return { given, sent: pushes.length };
    });
    for (const push of pushes) push();
    return result;
  }

  async function pass() {
    const total = { given: 0, sent: 0 };
    const watched = await repo.watched();
    if (!watched.length) return total;
    const deployment = await chain.deployment();
    const [now, params] = await Promise.all([chain.now(), readServicingParams(chain.publicClient, deployment.contracts.loanNote as Address)]);
    for (const loan of watched) {
      try {
        const { given, sent } = await remindLoan(loan, now, params);
        total.given += given;
        total.sent += sent;
      } catch (error) {
        deps.logger?.warn({ err: error, loanId: loan.loanId }, "reminder job could not remind a loan");
      }
    }
    return total;
  }

  return periodicJob(pass, "reminder job pass failed", deps.logger);
}
