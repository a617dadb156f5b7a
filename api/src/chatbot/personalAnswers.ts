import { displayUsd } from "#domain/money";
import { amountDueNow, installmentsPaid, isValidTerms, maturity, nextDueDate, payoffAmount, scheduleRows, totalDue, type LoanTerms } from "#domain/schedule";
import type { UserRow } from "#db/schema";
import type { Intent } from "./intents";
import type { ChatUserData, LoanWithNote } from "./userData";
import { shortAddress } from "#domain/shortAddress";

const MAX_LISTED = 5;

const day = (unixSeconds: bigint | number) => new Date(Number(unixSeconds) * 1000).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
const dateOf = (d: Date) => d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
const percent = (bps: number) => `${(bps / 100).toString()}%`;
/** A stored reason as a sentence of the answer: trimmed and closed by punctuation; null when blank. */
const sentence = (text: string | null | undefined) => {
  const t = text?.trim();
  return t ? (/[.!?]$/.test(t) ? t : `${t}.`) : null;
};
const label = (loan: LoanWithNote["loan"]) => `Loan #${loan.loanNumber}`;
/** The grace after maturity in words: "30 days", or seconds on a chain whose admin set a shorter one. */
const graceWords = (seconds: bigint) => (seconds % 86_400n === 0n ? `${seconds / 86_400n} day${seconds === 86_400n ? "" : "s"}` : `${seconds} second${seconds === 1n ? "" : "s"}`);

/** The terms as the chain has them when the note is mirrored, else as approved. */
function termsOf({ loan, note }: LoanWithNote): LoanTerms | null {
  if (note) return { principal: note.principal, rateBps: note.rateBps, termMonths: note.termMonths, start: BigInt(note.startTime) };
  if (loan.noteStart === null) return null;
  return { principal: loan.principal ?? loan.amount, rateBps: loan.rateBps, termMonths: loan.termMonths, start: loan.noteStart };
}

const repaidOf = ({ note }: LoanWithNote) => note?.totalRepaid ?? 0n;

/** Who holds a note, as the borrower reads it: themselves, or a short address. */
function holderName(holder: string, wallet: string | null, treasury: string | null): string {
  const same = (a: string | null) => a !== null && a.toLowerCase() === holder.toLowerCase();
  if (same(wallet)) return "you";
  if (same(treasury)) return "the treasury (the platform, until an investor buys it)";
  return shortAddress(holder);
}

function statusLine(entry: LoanWithNote, nowSeconds: bigint, grace: bigint | null, wallet: string | null = null, treasury: string | null = null): string {
  const { loan } = entry;
  const terms = `${displayUsd(loan.principal ?? loan.amount)} for ${loan.termMonths} month${loan.termMonths === 1 ? "" : "s"} at ${percent(loan.rateBps)}, ${loan.purpose.replace(/_/g, " ")}`;
  switch (loan.status) {
    case "pending":
      return `${label(loan)} (${terms}) is pending: it is waiting for an admin's review, requested on ${dateOf(loan.createdAt)}.`;
    case "approved":
      if (loan.mintStatus === "failed") return `${label(loan)} (${terms}) was approved, but minting its note failed; an admin can retry it, and it becomes active once the note is minted.`;
      return `${label(loan)} (${terms}) is approved: its note is being minted and the principal sent to your wallet. It becomes active once the chain confirms it.`;
    case "active": {
      const t = termsOf(entry);
      if (!t) return `${label(loan)} (${terms}) is active.`;
      const repaid = repaidOf(entry);
      const late = amountDueNow(t, repaid, nowSeconds);
      const holder = entry.note ? ` Its note is held by ${holderName(entry.note.holder, wallet, treasury)}.` : "";
      return `${label(loan)} (${terms}) is active: ${displayUsd(repaid)} repaid of ${displayUsd(totalDue(t))} scheduled${late > 0n ? `, and ${displayUsd(late)} is overdue` : ", on schedule"}.${holder}`;
    }
    case "completed":
      return `${label(loan)} (${terms}) is completed: it was repaid in full${loan.completedAt ? ` on ${dateOf(loan.completedAt)}` : ""} and its note was burned.`;
    case "rejected":
      return `${label(loan)} (${terms}) was rejected${loan.rejectionDate ? ` on ${dateOf(loan.rejectionDate)}` : ""}. Reason: ${sentence(loan.rejectionReason) ?? "Please contact support for details."}`;
    case "defaulted":
      return `${label(loan)} (${terms}) is defaulted: it stayed unpaid until a default could be recorded (an installment long past due, or ${grace === null ? "past maturity and the grace period" : `${graceWords(grace)} after maturity`}). It can still be repaid; paying it off marks it repaid and burns the note.`;
  }
}

function pickLoan(entries: LoanWithNote[], loanNumber: bigint | undefined): LoanWithNote[] | string {
  if (loanNumber === undefined) return entries;
  const match = entries.filter((e) => e.loan.loanNumber === loanNumber);
  return match.length ? match : `I can't find loan #${loanNumber} among your loans. Ask "what is the status of my loans" to see them all.`;
}

const NO_LOANS = "You have no loan requests yet. Once your KYC is approved and your wallet verified, you can request one at Request Loan (/loans/request).";

export interface PersonalAnswerDeps {
  data: ChatUserData;
  now: () => Date;
  /** The treasury's address: a note it holds is "held by the treasury". */
  treasury?: string | null;
  /** LoanNote's grace period in seconds, read from the chain; null (or absent) when it cannot be read. */
  gracePeriod?: () => Promise<bigint | null>;
}

/** The grace period, asked of the chain only by answers that speak of it; a chain that cannot say is null. */
async function graceOf(deps: PersonalAnswerDeps): Promise<bigint | null> {
  return (await deps.gracePeriod?.().catch(() => null)) ?? null;
}

/** Answers from the user's own records; null when the intent is not about them. */
export async function answerPersonal(intent: Intent, user: UserRow, deps: PersonalAnswerDeps): Promise<string | null> {
  const nowSeconds = BigInt(Math.floor(deps.now().getTime() / 1000));
  switch (intent.kind) {
    case "greeting":
      return `Hello ${user.firstName}! Ask me about loans, rates, KYC, wallets, the marketplace, the vault or fees, or about your own loans, payments and KYC status.`;
    case "thanks":
      return "You're welcome! Anything else about your loans, KYC or the marketplace?";
    case "loan_status": {
      const entries = await deps.data.loans(user.id);
      if (entries.length === 0) return NO_LOANS;
      const picked = pickLoan(entries, intent.loanNumber);
      if (typeof picked === "string") return picked;
      const grace = picked.some((e) => e.loan.status === "defaulted") ? await graceOf(deps) : null;
      const lines = picked.slice(0, MAX_LISTED).map((e) => statusLine(e, nowSeconds, grace, user.walletAddress, deps.treasury ?? null));
      const intro = picked.length === 1 ? "" : `You have ${picked.length} loans${picked.length > MAX_LISTED ? ` (the ${MAX_LISTED} newest below)` : ""}:\n`;
      return `${intro}${lines.map((l) => (picked.length === 1 ? l : `• ${l}`)).join("\n")}`;
    }
    case "next_payment": {
      const entries = await deps.data.loans(user.id);
      const pastMaturity = entries.some((e) => {
        const t = termsOf(e);
        return t !== null && nowSeconds >= maturity(t);
      });
      return nextPayment(entries, intent.loanNumber, nowSeconds, pastMaturity ? await graceOf(deps) : null);
    }
    case "kyc_status":
      return kycAnswer(user, deps);
    case "holdings":
      return holdings(user, deps);
    case "eligibility":
      return eligibility(user);
    case "rejection": {
      const rejected = (await deps.data.loans(user.id)).filter((e) => e.loan.status === "rejected");
      const parts = rejected.slice(0, MAX_LISTED).map((e) => statusLine(e, nowSeconds, null));
      if (user.kycStatus === "rejected") parts.unshift(await kycAnswer(user, deps));
      if (parts.length) return parts.join("\n");
      return `Nothing of yours was rejected: your KYC is ${user.kycStatus === "none" ? "not submitted yet" : user.kycStatus} and none of your loan requests was rejected.`;
    }
  }
}

function nextPayment(all: LoanWithNote[], loanNumber: bigint | undefined, nowSeconds: bigint, grace: bigint | null): string {
  if (all.length === 0) return NO_LOANS;
  const picked = pickLoan(all, loanNumber);
  if (typeof picked === "string") return picked;
  const repayable = picked.filter((e) => (e.loan.status === "active" || e.loan.status === "defaulted") && termsOf(e) !== null);
  if (repayable.length === 0) {
    const waiting = picked.filter((e) => e.loan.status === "pending" || e.loan.status === "approved");
    if (waiting.length)
      return `You have no payments due yet: ${waiting.map((e) => `${label(e.loan)} is ${e.loan.status}`).join(", ")}. Payments start once a loan is funded and its note minted; the first installment is due 30 days after that.`;
    return "You have no active loans, so no payment is due.";
  }
  const lines = repayable.slice(0, MAX_LISTED).map((entry) => {
    const t = termsOf(entry)!;
    const repaid = repaidOf(entry);
    const rows = scheduleRows(t);
    const payoff = payoffAmount(t, repaid, nowSeconds);
    const overdue = amountDueNow(t, repaid, nowSeconds);
    const paid = installmentsPaid(t, repaid);
    const next = rows[paid];
    if (!next) return `${label(entry.loan)} is fully paid.`;
    const remainingOfNext = rows.slice(0, paid + 1).reduce((sum, row) => sum + row.payment, 0n) - repaid;
    const due = nextDueDate(t, repaid);
    const parts = [`${label(entry.loan)}: your next installment (${next.index} of ${rows.length}) is ${displayUsd(remainingOfNext)}, due on ${day(due)}.`];
    if (overdue > 0n) {
      const pastMaturity = nowSeconds >= maturity(t);
      parts.push(
        `${displayUsd(overdue)} has fallen due and is unpaid${pastMaturity ? `; the loan matured on ${day(maturity(t))}, and ${grace === null ? "once the grace period has passed" : `${graceWords(grace)} after maturity`} an unpaid loan can be marked defaulted` : ""}.`,
      );
    }
    if (!isValidTerms(t) || payoff === 0n) return parts.join(" ");
    parts.push(`Paying it off today would cost ${displayUsd(payoff)} (outstanding principal plus this month's interest, no penalty).`);
    return parts.join(" ");
  });
  return `${lines.join("\n")}\nRepay from the loan's page in My Loans (/loans/my-loans): sign a permit, then send one transaction.`;
}

/** Borrowing and buying both need approved KYC and a verified wallet. */
function eligibility(user: UserRow): string {
  const missing: string[] = [];
  if (user.kycStatus === "none") missing.push("submit your KYC documents on the KYC page (/kyc); review takes 24–48 hours");
  if (user.kycStatus === "pending") missing.push("wait for your KYC review, which usually takes 24–48 hours");
  if (user.kycStatus === "rejected") missing.push("resubmit your KYC documents on the KYC page (/kyc), since your last submission was rejected");
  if (!user.walletAddress) missing.push("link a wallet on your Profile (/profile) by signing a message with it");
  if (missing.length === 0) {
    return `You're all set: your KYC is approved and your wallet ${shortAddress(user.walletAddress!)} is verified. You can request a loan (/loans/request) and buy notes on the marketplace (/marketplace).`;
  }
  return `To request a loan or buy notes you need approved KYC and a verified wallet. Still to do: ${missing.join("; and ")}.`;
}

async function kycAnswer(user: UserRow, deps: PersonalAnswerDeps): Promise<string> {
  const submission = await deps.data.latestKycSubmission(user.id);
  switch (user.kycStatus) {
    case "approved":
      return `Your KYC is approved${submission?.reviewedAt ? ` (since ${dateOf(submission.reviewedAt)})` : ""}. You can request loans and buy notes${user.walletAddress ? "" : " once you verify a wallet"}.`;
    case "pending":
      return `Your KYC documents${submission ? `, submitted on ${dateOf(submission.createdAt)},` : ""} are under review. Reviews usually take 24–48 hours; you'll get a notification with the decision.`;
    case "rejected": {
      const reason = sentence(submission?.rejectionReason) ?? sentence(submission?.notes);
      return `Your KYC was rejected${submission?.reviewedAt ? ` on ${dateOf(submission.reviewedAt)}` : ""}. Reason: ${reason ?? "Please resubmit your documents."} You can upload new documents on the KYC page (/kyc); they are reviewed again within 24–48 hours.`;
    }
    default:
      return "You haven't submitted KYC documents yet. On the KYC page (/kyc) upload a government ID (passport, driver's license or national ID), proof of address (utility bill or bank statement from the last 3 months) and income verification (pay stubs or tax returns). Review takes 24–48 hours.";
  }
}

async function holdings(user: UserRow, deps: PersonalAnswerDeps): Promise<string> {
  if (!user.walletAddress) return "You have no verified wallet yet, so you hold no notes. Link one on your Profile by signing a message with your wallet.";
  const [held, credits] = await Promise.all([deps.data.heldNotes(user.walletAddress), deps.data.pendingCredits(user.walletAddress)]);
  const waiting = credits.credited - credits.withdrawn;
  const parts: string[] = [];
  if (held.length === 0) parts.push("You hold no loan notes at the moment.");
  else {
    const outstanding = held.reduce((sum, h) => {
      const t: LoanTerms = { principal: h.note.principal, rateBps: h.note.rateBps, termMonths: h.note.termMonths, start: BigInt(h.note.startTime) };
      const due = totalDue(t);
      return sum + (due > h.note.totalRepaid ? due - h.note.totalRepaid : 0n);
    }, 0n);
    const ids = held.slice(0, 10).map((h) => `#${h.note.tokenId}${h.vaulted ? " (in the vault)" : ""}`);
    parts.push(
      `You hold ${held.length} loan note${held.length === 1 ? "" : "s"}: ${ids.join(", ")}${held.length > 10 ? ", …" : ""}, with ${displayUsd(outstanding)} of scheduled repayments still to come.`,
    );
  }
  parts.push(
    waiting > 0n
      ? `${displayUsd(waiting)} of repayments is credited to you and waiting to be withdrawn from your portfolio (${displayUsd(credits.withdrawn)} withdrawn so far).`
      : `No repayments are waiting to be withdrawn${credits.withdrawn > 0n ? ` (${displayUsd(credits.withdrawn)} withdrawn so far)` : ""}.`,
  );
  return parts.join(" ");
}
