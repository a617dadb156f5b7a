import type { PublicClient } from "viem";
import { formatUsdAmount } from "#domain/money";
import { paymentSplit } from "#domain/paymentSplit";
import { remainingCashFlows } from "#domain/noteYield";
import { outstandingBalance, payoffAmount, scheduleRows, type LoanTerms } from "#domain/schedule";
import { lateFeesOwed } from "#domain/lateFees";
import type { FeeParams } from "#domain/servicingRecord";
import { periodBounds, type StatementPeriod } from "#domain/schemas/statements";
import { isUuid } from "#domain/uuid";
import type { WireLoanStatement, WirePortfolioStatement } from "#domain/wire/statement";
import { ratePercent, xirr, type DatedFlow } from "#domain/xirr";
import type { UserRow } from "#db/schema";
import { chainNow } from "../chain/chainClock";
import { conflict, notFound } from "../http/errors";
import type { LateFeeRow, NoteRow, RepaymentRow, StatementsRepository, TradeRow } from "./repository";

export const STATEMENT_ANSWERS = {
  loanNotFound: "Loan not found",
  noNote: "This loan has no note on-chain yet, so it has no statement",
} as const;

const usd = formatUsdAmount;
const seconds = (t: Date | string | null): bigint | null => (t ? BigInt(Math.floor(new Date(t).getTime() / 1000)) : null);
const iso = (t: Date | string | null) => (t ? new Date(t).toISOString() : null);
const isoOf = (s: bigint) => new Date(Number(s) * 1000).toISOString();
const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);
const termsOf = (n: Pick<NoteRow, "principal" | "rate_bps" | "term_months" | "start_time">): LoanTerms => ({
  principal: BigInt(n.principal),
  rateBps: n.rate_bps,
  termMonths: n.term_months,
  start: BigInt(n.start_time),
});

/**
 * The annualised return of dated flows, or null when they span less than a day: a position opened and closed
 * within minutes would annualise a cent into millions of percent, a figure that tells a reader nothing.
 */
function annualReturn(flows: DatedFlow[]): number | null {
  if (flows.length < 2) return null;
  const times = flows.map((f) => f.time);
  const span = times.reduce((a, b) => (b > a ? b : a)) - times.reduce((a, b) => (b < a ? b : a));
  return span < 86_400n ? null : ratePercent(xirr(flows));
}

/** The late fees logged in each transaction: a payment's LateFeesPaid comes just before its Repaid, in the same one. */
function feesByTx(fees: LateFeeRow[]): Map<string, bigint> {
  const byTx = new Map<string, bigint>();
  for (const fee of fees) byTx.set(`${fee.tx_hash}:${fee.token_id}`, (byTx.get(`${fee.tx_hash}:${fee.token_id}`) ?? 0n) + BigInt(fee.amount));
  return byTx;
}
const feeOf = (byTx: Map<string, bigint>, r: { tx_hash: string; token_id: string }) => byTx.get(`${r.tx_hash}:${r.token_id}`) ?? 0n;

/** `fees` answers the deployment's late-fee terms: a payoff now includes the fees owed now. */
export function createStatementsService(deps: { repo: StatementsRepository; publicClient: Pick<PublicClient, "getBlock">; fees: () => Promise<FeeParams> }) {
  const { repo } = deps;

  /** GET /loans/{id}/statement: the borrower's (or an admin's) statement of one loan, from its note on the chain. */
  async function loan(user: UserRow, loanId: string): Promise<WireLoanStatement> {
    if (!isUuid(loanId)) throw notFound(STATEMENT_ANSWERS.loanNotFound);
    const row = await repo.loan(loanId);
    // Another user's loan answers as a missing one, as every /loans path does: ids cannot be probed.
    if (!row || (row.user_id !== user.id && user.role !== "admin")) throw notFound(STATEMENT_ANSWERS.loanNotFound);
    if (!row.token_id || !row.principal || row.rate_bps === null || row.term_months === null || !row.start_time || !row.status) throw conflict(STATEMENT_ANSWERS.noNote);
    const terms = termsOf({ principal: row.principal, rate_bps: row.rate_bps, term_months: row.term_months, start_time: row.start_time });
    const [repayments, lateFees, now, feeParams] = await Promise.all([repo.repaymentsOf([row.token_id]), repo.lateFeesOf([row.token_id]), chainNow(deps.publicClient), deps.fees()]);
    const repaid = BigInt(row.total_repaid ?? 0);
    const settled = row.status === "repaid";
    const feeIn = feesByTx(lateFees);

    const payments = repayments.map((r, i) => {
      // Repaid.amount includes the late fees paid first; the schedule's split is of the rest.
      const fee = feeOf(feeIn, r);
      const split = paymentSplit(terms, BigInt(r.amount) - fee, BigInt(r.total_repaid), settled && i === repayments.length - 1);
      return {
        txHash: r.tx_hash,
        blockNumber: Number(r.block_number),
        time: iso(r.block_time),
        amount: usd(BigInt(r.amount)),
        lateFee: usd(fee),
        interest: usd(split.interest),
        principal: usd(split.principal),
        balanceAfter: usd(split.balanceAfter),
        split,
      };
    });
    const interestPaid = sum(payments.map((p) => p.split.interest));
    const principalPaid = sum(payments.map((p) => p.split.principal));
    const feesPaid = sum(lateFees.map((f) => BigInt(f.amount)));
    const feesOwed = row.status === "active" ? lateFeesOwed({ terms, repaid, feesPaidThrough: row.fees_paid_through ?? 0 }, now, feeParams).amount : 0n;
    return {
      loanId: row.loan_id,
      tokenId: row.token_id,
      borrower: row.borrower!,
      asOf: isoOf(now),
      status: row.status,
      terms: { principal: usd(terms.principal), interestRate: row.rate_bps / 100, termMonths: row.term_months, start: isoOf(terms.start) },
      schedule: scheduleRows(terms).map((s) => ({
        index: s.index,
        dueDate: isoOf(s.dueDate),
        payment: usd(s.payment),
        interest: usd(s.interest),
        principal: usd(s.principal),
        balanceAfter: usd(s.balance),
      })),
      payments: payments.map(({ split: _split, ...p }) => p),
      fees: lateFees.map((f) => ({ kind: "late_fee", time: iso(f.block_time), amount: usd(BigInt(f.amount)), txHash: f.tx_hash })),
      totals: {
        paid: usd(repaid + feesPaid),
        interestPaid: usd(interestPaid),
        principalPaid: usd(principalPaid),
        feesPaid: usd(feesPaid),
        outstanding: usd(settled ? 0n : outstandingBalance(terms, repaid)),
        payoff: usd(settled ? 0n : payoffAmount(terms, repaid, now) + feesOwed),
      },
    };
  }

  /** GET /portfolio/statement: what the signed-in user's verified wallet did and earned in the period. */
  async function portfolio(user: UserRow, period: StatementPeriod): Promise<WirePortfolioStatement> {
    const wallet = user.walletAddress?.toLowerCase() ?? null;
    const { start, end } = periodBounds(period);
    const now = await chainNow(deps.publicClient);
    // Figures "at the period's end" are read at that moment, or now when the period has not ended yet.
    const valuedAt = end < now ? end : now;
    const empty = {
      bought: 0n,
      sold: 0n,
      fees: 0n,
      saleProceeds: 0n,
      received: 0n,
      lateFeesReceived: 0n,
      withdrawn: 0n,
      realisedReturn: 0n,
      expectedReturn: 0n,
      outstandingPrincipal: 0n,
      valueAtEnd: 0n,
    };
    const base = { walletAddress: wallet, from: period.from, to: period.to, asOf: isoOf(valuedAt) };
    if (!wallet) return { ...base, trades: [], receipts: [], withdrawals: [], notes: [], totals: { ...formatted(empty), notesHeld: 0, xirr: null } };

    const [trades, credited, withdrawals, vaultMoves, feesToMe] = await Promise.all([
      repo.trades(wallet),
      repo.creditedTo(wallet),
      repo.withdrawals(wallet),
      repo.vaultMoves(wallet),
      repo.lateFeesTo(wallet),
    ]);
    const feeIn = feesByTx(feesToMe);
    const at = (r: { block_time: Date | string | null }) => seconds(r.block_time) ?? 0n;
    const inPeriod = (r: { block_time: Date | string | null }) => at(r) >= start && at(r) < end;
    const byEnd = (r: { block_time: Date | string | null }) => at(r) < valuedAt || (at(r) === valuedAt && valuedAt === now);
    const buys = (t: TradeRow) => t.buyer === wallet;
    const proceeds = (t: TradeRow) => BigInt(t.price) - BigInt(t.fee);

    // A repayment reached the wallet through the vault when its last move of that note before it was a deposit.
    const viaVault = (r: RepaymentRow) => {
      const last = vaultMoves.filter((v) => v.token_id === r.token_id && (Number(v.block_number) < Number(r.block_number) || (v.block_number === r.block_number && v.log_index < r.log_index))).at(-1);
      return last?.kind === "deposit";
    };

    const tokenIds = [...new Set([...trades.map((t) => t.token_id), ...credited.map((r) => r.token_id)])];
    const [notes, allRepayments] = await Promise.all([repo.notes(tokenIds), repo.repaymentsOf(tokenIds)]);
    const noteOf = new Map(notes.map((n) => [n.token_id, n]));

    const portfolioFlows: DatedFlow[] = [];
    const noteResults = tokenIds.flatMap((tokenId) => {
      const note = noteOf.get(tokenId);
      if (!note) return [];
      const terms = termsOf(note);
      const myTrades = trades.filter((t) => t.token_id === tokenId && byEnd(t));
      const received = credited.filter((r) => r.token_id === tokenId && byEnd(r));
      const repaymentsByEnd = allRepayments.filter((r) => r.token_id === tokenId && byEnd(r));
      const repaidAtEnd = repaymentsByEnd.length ? BigInt(repaymentsByEnd.at(-1)!.total_repaid) : 0n;
      const finalPayment = note.status === "repaid" ? allRepayments.filter((r) => r.token_id === tokenId).at(-1) : undefined;
      const repaidByEnd = finalPayment !== undefined && byEnd(finalPayment);
      const lastTrade = myTrades.at(-1);

      let position: "held" | "sold" | "repaid";
      let closedAt: bigint | null = null;
      if (lastTrade && !buys(lastTrade)) [position, closedAt] = ["sold", at(lastTrade)];
      else if (repaidByEnd) [position, closedAt] = ["repaid", at(finalPayment)];
      else if (lastTrade || note.holder === wallet) position = "held";
      else return [];

      const pricePaid = sum(myTrades.filter(buys).map((t) => BigInt(t.price)));
      const receivedTotal = sum(received.map((r) => BigInt(r.amount)));
      const saleProceeds = sum(myTrades.filter((t) => !buys(t)).map(proceeds));
      const held = position === "held";
      const defaulted = note.status === "defaulted";
      const outstandingPrincipal = held ? outstandingBalance(terms, repaidAtEnd) : 0n;
      // A defaulted note pays nothing more on schedule; what its collateral fetches is not known here.
      const valueAtEnd = held && !defaulted ? payoffAmount(terms, repaidAtEnd, valuedAt) : 0n;
      const remaining = held && !defaulted ? sum(remainingCashFlows(terms, repaidAtEnd, valuedAt).map((f) => f.amount)) : 0n;
      const bought = myTrades.some(buys);

      const flows: DatedFlow[] = [
        ...myTrades.map((t) => ({ amount: buys(t) ? -BigInt(t.price) : proceeds(t), time: at(t) })),
        ...received.map((r) => ({ amount: BigInt(r.amount), time: at(r) })),
        ...(held && valueAtEnd > 0n ? [{ amount: valueAtEnd, time: valuedAt }] : []),
      ];
      if (bought) portfolioFlows.push(...flows);
      return [
        {
          tokenId,
          position,
          closedInPeriod: closedAt !== null && closedAt >= start && closedAt < end,
          pricePaid: bought ? pricePaid : null,
          received: receivedTotal,
          saleProceeds,
          outstandingPrincipal,
          valueAtEnd,
          realisedReturn: bought && !held ? receivedTotal + saleProceeds - pricePaid : null,
          expectedReturn: bought && held ? receivedTotal + saleProceeds + remaining - pricePaid : null,
          irr: bought ? annualReturn(flows) : null,
        },
      ];
    });

    const periodTrades = trades.filter(inPeriod);
    const sells = periodTrades.filter((t) => !buys(t));
    const receipts = credited.filter(inPeriod);
    const periodWithdrawals = withdrawals.filter(inPeriod);
    const heldNotes = noteResults.filter((n) => n.position === "held");
    const totals = {
      bought: sum(periodTrades.filter(buys).map((t) => BigInt(t.price))),
      sold: sum(sells.map((t) => BigInt(t.price))),
      // The platform's fee comes out of the price, so the seller bears it.
      fees: sum(sells.map((t) => BigInt(t.fee))),
      saleProceeds: sum(sells.map(proceeds)),
      received: sum(receipts.map((r) => BigInt(r.amount))),
      lateFeesReceived: sum(receipts.map((r) => feeOf(feeIn, r))),
      withdrawn: sum(periodWithdrawals.map((w) => BigInt(w.amount))),
      realisedReturn: sum(noteResults.filter((n) => n.closedInPeriod && n.realisedReturn !== null).map((n) => n.realisedReturn!)),
      expectedReturn: sum(heldNotes.filter((n) => n.expectedReturn !== null).map((n) => n.expectedReturn!)),
      outstandingPrincipal: sum(heldNotes.map((n) => n.outstandingPrincipal)),
      valueAtEnd: sum(heldNotes.map((n) => n.valueAtEnd)),
    };
    const onChain = (r: { tx_hash: string; block_number: string; block_time: Date | string | null }) => ({ txHash: r.tx_hash, blockNumber: Number(r.block_number), time: iso(r.block_time) });
    return {
      ...base,
      trades: periodTrades.map((t) => ({
        tokenId: t.token_id,
        ...onChain(t),
        side: buys(t) ? ("buy" as const) : ("sell" as const),
        price: usd(BigInt(t.price)),
        fee: usd(BigInt(t.fee)),
        net: usd(buys(t) ? BigInt(t.price) : proceeds(t)),
        counterparty: buys(t) ? t.seller : t.buyer,
      })),
      receipts: receipts.map((r) => ({ tokenId: r.token_id, ...onChain(r), amount: usd(BigInt(r.amount)), lateFee: usd(feeOf(feeIn, r)), viaVault: viaVault(r) })),
      withdrawals: periodWithdrawals.map((w) => ({ ...onChain(w), amount: usd(BigInt(w.amount)) })),
      notes: noteResults.map((n) => ({
        ...n,
        pricePaid: n.pricePaid === null ? null : usd(n.pricePaid),
        received: usd(n.received),
        saleProceeds: usd(n.saleProceeds),
        outstandingPrincipal: usd(n.outstandingPrincipal),
        valueAtEnd: usd(n.valueAtEnd),
        realisedReturn: n.realisedReturn === null ? null : usd(n.realisedReturn),
        expectedReturn: n.expectedReturn === null ? null : usd(n.expectedReturn),
      })),
      totals: { ...formatted(totals), notesHeld: heldNotes.length, xirr: annualReturn(portfolioFlows) },
    };
  }

  return { loan, portfolio };
}

function formatted<K extends string>(values: Record<K, bigint>): Record<K, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, formatUsdAmount(v as bigint)])) as Record<K, string>;
}

export type StatementsService = ReturnType<typeof createStatementsService>;
