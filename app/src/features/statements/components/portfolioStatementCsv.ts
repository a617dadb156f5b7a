import type { WirePortfolioStatement } from "#domain/wire/statement";
import { toCsv } from "./csv";

/** The investor statement as CSV, from the same wire data the page shows: exact amounts, ISO times. */
export function portfolioStatementCsv(s: WirePortfolioStatement): string {
  const t = s.totals;
  return toCsv([
    [
      ["Investor statement", s.walletAddress],
      ["From", s.from],
      ["To", s.to],
      ["As of", s.asOf],
    ],
    [["Trade time", "Side", "Note", "Price", "Fee", "Net", "Counterparty", "Transaction"], ...s.trades.map((x) => [x.time, x.side, x.tokenId, x.price, x.fee, x.net, x.counterparty, x.txHash])],
    [["Repayment time", "Note", "Amount", "Late fee", "Via vault", "Transaction"], ...s.receipts.map((r) => [r.time, r.tokenId, r.amount, r.lateFee, r.viaVault, r.txHash])],
    [["Withdrawal time", "Amount", "Transaction"], ...s.withdrawals.map((w) => [w.time, w.amount, w.txHash])],
    [
      ["Note", "Position", "Price paid", "Received", "Sale proceeds", "Outstanding principal", "Value at end", "Realised return", "Expected return", "IRR (%)"],
      ...s.notes.map((n) => [n.tokenId, n.position, n.pricePaid, n.received, n.saleProceeds, n.outstandingPrincipal, n.valueAtEnd, n.realisedReturn, n.expectedReturn, n.irr]),
    ],
    [
      ["Total", "Amount"],
      ["Bought", t.bought],
      ["Sold", t.sold],
      ["Fees", t.fees],
      ["Sale proceeds", t.saleProceeds],
      ["Repayments received", t.received],
      ["Late fees received", t.lateFeesReceived],
      ["Withdrawn", t.withdrawn],
      ["Realised return", t.realisedReturn],
      ["Expected return", t.expectedReturn],
      ["Notes held", t.notesHeld],
      ["Outstanding principal", t.outstandingPrincipal],
      ["Value at end", t.valueAtEnd],
      ["XIRR (%)", t.xirr],
    ],
  ]);
}
