import { zeroAddress } from "viem";
import type { ActivityKind } from "#domain/activity";
import type { WireActivityEntry } from "#domain/wire/activity";
import { formatUsdAmount } from "#domain/money";
import { installmentsPaid, outstandingBalance, scheduleRows, type LoanTerms } from "#domain/schedule";
import type { UserRow } from "#db/schema";
import { notFound } from "../http/errors";
import type { ActivityRepository, HeldNoteRow, LoanNoteRow, RepaymentRow } from "./repository";
import { isUuid } from "#domain/uuid";

export const ACTIVITY_ANSWERS = { loanNotFound: "Loan not found" } as const;

export type { ActivityKind };

/** What the routes answer for each event; the app parses it with the same schema. */
export type ActivityEntry = WireActivityEntry;

const iso = (t: Date | string | null) => (t ? new Date(t).toISOString() : null);
const seconds = (t: Date | string | null) => (t ? BigInt(Math.floor(new Date(t).getTime() / 1000)) : null);
const termsOf = (n: Pick<HeldNoteRow, "principal" | "rate_bps" | "term_months" | "start_time">): LoanTerms => ({
  principal: BigInt(n.principal),
  rateBps: n.rate_bps,
  termMonths: n.term_months,
  start: BigInt(n.start_time),
});
const newestFirst = (a: ActivityEntry, b: ActivityEntry) => b.blockNumber - a.blockNumber || b.logIndex - a.logIndex;

/**
 * Installments fallen due (or already paid) and how many were paid by their due date: an installment is paid
 * when the note's repayments reach the schedule's payments through it (installmentsPaid), or when the note is repaid early.
 */
export function punctuality(terms: LoanTerms, repayments: Pick<RepaymentRow, "total_repaid" | "block_time">[], repaidAt: bigint | null, now: bigint) {
  let due = 0;
  let onTime = 0;
  const paidBy = repayments.map((r) => installmentsPaid(terms, BigInt(r.total_repaid)));
  for (const row of scheduleRows(terms)) {
    const reached = repayments[paidBy.findIndex((paid) => paid >= row.index)];
    const paidAt = reached ? seconds(reached.block_time) : repaidAt;
    if (row.dueDate > now && paidAt === null) continue;
    due += 1;
    if (paidAt !== null && paidAt <= row.dueDate) onTime += 1;
  }
  return { due, onTime };
}

/** The interest part of one payment: what it paid beyond the principal it retired (the final payment retires it all). */
export function interestOf(terms: LoanTerms, payment: Pick<RepaymentRow, "amount" | "total_repaid">, final: boolean): bigint {
  const amount = BigInt(payment.amount);
  const after = BigInt(payment.total_repaid);
  const before = outstandingBalance(terms, after - amount);
  const retired = final ? before : before - outstandingBalance(terms, after);
  return amount > retired ? amount - retired : 0n;
}

export function createActivityService(deps: { repo: ActivityRepository; now?: () => Date }) {
  const { repo } = deps;
  const nowSeconds = () => BigInt(Math.floor((deps.now?.() ?? new Date()).getTime() / 1000));

  async function gather(user: UserRow) {
    const wallet = user.walletAddress?.toLowerCase() ?? null;
    const loans = await repo.loanNotes(user.id);
    const tokenIds = loans.map((l) => l.token_id).filter((t): t is string => t !== null);
    const [repayments, sales, transfers, vault, withdrawals] = await Promise.all([
      repo.repayments(tokenIds, wallet),
      repo.sales(tokenIds, wallet),
      repo.transfers(tokenIds, wallet),
      wallet ? repo.vaultMoves(wallet) : Promise.resolve([]),
      wallet ? repo.withdrawals(wallet) : Promise.resolve([]),
    ]);
    return { wallet, loans, tokenIds, repayments, sales, transfers, vault, withdrawals };
  }

  return {
    /** GET /activity: the user's on-chain activity, newest first. */
    async transactions(user: UserRow, limit: number) {
      const { wallet, loans, tokenIds, repayments, sales, transfers, vault, withdrawals } = await gather(user);
      const mine = new Set(tokenIds);
      const loanOf = new Map(loans.filter((l) => l.token_id).map((l) => [l.token_id!, l.loan_id]));
      const base = (tokenId: string | null, txHash: string, block: string, logIndex: number, time: Date | string | null) => ({
        tokenId,
        loanId: tokenId ? (loanOf.get(tokenId) ?? null) : null,
        txHash,
        blockNumber: Number(block),
        logIndex,
        time: iso(time),
      });
      const entries: ActivityEntry[] = [];
      for (const l of loans) {
        if (!l.token_id || !l.origin_tx_hash) continue;
        entries.push({
          kind: "loan_disbursement",
          amount: formatUsdAmount(BigInt(l.principal!)),
          from: null,
          to: l.borrower,
          ...base(l.token_id, l.origin_tx_hash, l.origin_block!, -1, l.origin_time),
        });
      }
      for (const r of repayments) {
        const ownLoanOrPayer = mine.has(r.token_id) || r.payer === wallet;
        entries.push({
          kind: ownLoanOrPayer ? "repayment" : "repayment_received",
          amount: formatUsdAmount(BigInt(r.amount)),
          from: r.payer,
          to: r.beneficiary,
          ...base(r.token_id, r.tx_hash, r.block_number, r.log_index, r.block_time),
        });
      }
      for (const s of sales) {
        if (s.buyer !== wallet && s.seller !== wallet) continue;
        entries.push({
          kind: s.buyer === wallet ? "nft_purchase" : "nft_sale",
          amount: formatUsdAmount(BigInt(s.price)),
          from: s.seller,
          to: s.buyer,
          ...base(s.token_id, s.tx_hash, s.block_number, s.log_index, s.block_time),
        });
      }
      for (const v of vault) {
        entries.push({
          kind: v.kind === "deposit" ? "vault_deposit" : "vault_withdraw",
          amount: null,
          from: v.account,
          to: null,
          ...base(v.token_id, v.tx_hash, v.block_number, v.log_index, v.block_time),
        });
      }
      for (const w of withdrawals) {
        entries.push({ kind: "withdrawal", amount: formatUsdAmount(BigInt(w.amount)), from: null, to: w.account, ...base(null, w.tx_hash, w.block_number, w.log_index, w.block_time) });
      }
      // A transfer inside a sale, vault move, origination or final repayment is already told by that entry.
      const told = new Set(entries.map((e) => e.txHash));
      for (const t of transfers) {
        if (told.has(t.tx_hash) || (t.from_address !== wallet && t.to_address !== wallet)) continue;
        entries.push({ kind: "nft_transfer", amount: null, from: t.from_address, to: t.to_address, ...base(t.token_id, t.tx_hash, t.block_number, t.log_index, t.block_time) });
      }
      entries.sort(newestFirst);
      return { walletAddress: wallet, total: entries.length, transactions: entries.slice(0, limit) };
    },

    /** GET /activity/summary: the dashboard's tiles and Performance block, from the loans and the mirror. */
    async summary(user: UserRow) {
      const { wallet, loans, repayments } = await gather(user);
      const [held, credits] = wallet ? await Promise.all([repo.heldNotes(wallet), repo.credits(wallet)]) : [[], { credited: 0n, withdrawn: 0n }];
      const outstanding = held.reduce((sum, n) => sum + outstandingBalance(termsOf(n), BigInt(n.total_repaid)), 0n);
      const available = credits.credited - credits.withdrawn;
      const minted = loans.filter((l) => l.mint_status === "minted");
      const now = nowSeconds();

      let due = 0;
      let onTime = 0;
      let repaidByMe = 0n;
      for (const l of loans.filter((x) => x.token_id && x.start_time)) {
        const own = repayments.filter((r) => r.token_id === l.token_id);
        repaidByMe += own.reduce((sum, r) => sum + BigInt(r.amount), 0n);
        const final = l.note_status === "repaid" ? seconds(own.at(-1)?.block_time ?? null) : null;
        const p = punctuality(termsOf(l as Required<LoanNoteRow> & HeldNoteRow), own, final, now);
        due += p.due;
        onTime += p.onTime;
      }

      const received = wallet ? repayments.filter((r) => r.beneficiary === wallet) : [];
      const receivedTokens = [...new Set(received.map((r) => r.token_id))];
      const notes = new Map((await repo.notes(receivedTokens)).map((n) => [n.token_id, n]));
      let interestEarned = 0n;
      for (const r of received) {
        const note = notes.get(r.token_id);
        if (!note) continue;
        const final = note.status === "repaid" && r.total_repaid === note.total_repaid;
        interestEarned += interestOf(termsOf(note), r, final);
      }

      return {
        walletAddress: wallet,
        portfolioValue: formatUsdAmount(outstanding + available),
        notesHeld: held.length,
        notesOutstanding: formatUsdAmount(outstanding),
        creditsAvailable: formatUsdAmount(available),
        totalLoans: loans.length,
        activeLoans: loans.filter((l) => l.loan_status === "active").length,
        totalBorrowed: formatUsdAmount(minted.reduce((sum, l) => sum + BigInt(l.loan_principal ?? 0), 0n)),
        nftLoans: minted.length,
        performance: {
          installmentsDue: due,
          installmentsOnTime: onTime,
          /** Percent with one decimal; null until an installment has fallen due or been paid. */
          onTimeRate: due ? Math.round((onTime * 1000) / due) / 10 : null,
          totalRepaid: formatUsdAmount(repaidByMe),
          interestEarned: formatUsdAmount(interestEarned),
          repaymentsReceived: formatUsdAmount(credits.credited),
        },
      };
    },

    /** GET /activity/loans/{id}: one loan's note from the mirror (holder, progress) and every on-chain step of it. */
    async loan(user: UserRow, loanId: string) {
      if (!isUuid(loanId)) throw notFound(ACTIVITY_ANSWERS.loanNotFound);
      const [row] = await repo.loanNote(loanId);
      if (!row || (row.user_id !== user.id && user.role !== "admin")) throw notFound(ACTIVITY_ANSWERS.loanNotFound);
      if (!row.token_id) return { tokenId: null, holder: null, owner: null, burned: false, totalRepaid: "0", entries: [] as ActivityEntry[] };
      const ids = [row.token_id];
      const [repayments, sales, transfers, vault] = await Promise.all([repo.repayments(ids, null), repo.sales(ids, null), repo.transfers(ids, null), repo.vaultMovesOf(ids)]);
      const base = (txHash: string, block: string, logIndex: number, time: Date | string | null) => ({
        tokenId: row.token_id,
        loanId: row.loan_id,
        txHash,
        blockNumber: Number(block),
        logIndex,
        time: iso(time),
      });
      const entries: ActivityEntry[] = [];
      if (row.origin_tx_hash)
        entries.push({ kind: "loan_disbursement", amount: formatUsdAmount(BigInt(row.principal!)), from: null, to: row.borrower, ...base(row.origin_tx_hash, row.origin_block!, -1, row.origin_time) });
      for (const r of repayments)
        entries.push({ kind: "repayment", amount: formatUsdAmount(BigInt(r.amount)), from: r.payer, to: r.beneficiary, ...base(r.tx_hash, r.block_number, r.log_index, r.block_time) });
      const saleTx = new Set(sales.map((s) => s.tx_hash));
      for (const s of sales) entries.push({ kind: "nft_sale", amount: formatUsdAmount(BigInt(s.price)), from: s.seller, to: s.buyer, ...base(s.tx_hash, s.block_number, s.log_index, s.block_time) });
      // A move into or out of the vault is its transfer, told as what it was: who deposited, who withdrew.
      const vaultMove = new Map(vault.map((v) => [v.tx_hash, v]));
      for (const t of transfers) {
        if (saleTx.has(t.tx_hash)) continue;
        const move = vaultMove.get(t.tx_hash);
        if (move) {
          entries.push({
            kind: move.kind === "deposit" ? "vault_deposit" : "vault_withdraw",
            amount: null,
            from: t.from_address,
            to: t.to_address,
            ...base(t.tx_hash, t.block_number, t.log_index, t.block_time),
          });
          continue;
        }
        const kind: ActivityKind = t.from_address === zeroAddress ? "mint" : t.to_address === zeroAddress ? "burn" : "nft_transfer";
        entries.push({ kind, amount: null, from: t.from_address, to: t.to_address, ...base(t.tx_hash, t.block_number, t.log_index, t.block_time) });
      }
      entries.sort(newestFirst);
      return {
        tokenId: row.token_id,
        holder: row.burned ? null : row.holder,
        owner: row.burned ? null : row.owner,
        burned: Boolean(row.burned),
        totalRepaid: formatUsdAmount(BigInt(row.total_repaid ?? 0)),
        entries,
      };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
