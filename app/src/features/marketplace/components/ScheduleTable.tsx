import { parseUsd, displayUsd } from "#domain/money";
import { installmentsPaid, scheduleRows, type LoanTerms } from "#domain/schedule";
import type { NftDetails } from "../api/getNft";

/** The note's amortisation schedule, computed by the same code the contract is proven against; paid rows marked. */
export function ScheduleTable({ nft }: { nft: NftDetails }) {
  const terms: LoanTerms = { principal: parseUsd(nft.terms.principal), rateBps: nft.terms.rateBps, termMonths: nft.terms.termMonths, start: BigInt(nft.terms.startTime) };
  const rows = scheduleRows(terms);
  const paidCount = installmentsPaid(terms, parseUsd(nft.totalRepaid));
  // A burned note was repaid in full, unless its holder took the escrowed NFT after a default.
  const claimed = nft.burned && nft.collateral?.state === "claimed";
  return (
    <div className="table-wrap">
      <table className="table table--cards" data-testid="schedule">
        <thead>
          <tr>
            <th>#</th>
            <th>Due</th>
            <th>Payment</th>
            <th>Interest</th>
            <th>Principal</th>
            <th>Balance</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const paid = (nft.burned && !claimed) || r.index <= paidCount;
            return (
              <tr key={r.index}>
                <td data-label="#">{r.index}</td>
                <td data-label="Due">{new Date(Number(r.dueDate) * 1000).toLocaleDateString()}</td>
                <td data-label="Payment">{displayUsd(r.payment)}</td>
                <td data-label="Interest">{displayUsd(r.interest)}</td>
                <td data-label="Principal">{displayUsd(r.principal)}</td>
                <td data-label="Balance">{displayUsd(r.balance)}</td>
                <td data-label="Status">
                  {paid ? (
                    <span className="badge badge--success">Paid</span>
                  ) : claimed ? (
                    <span className="badge badge--neutral">Settled by the NFT</span>
                  ) : (
                    <span className="badge badge--neutral">Due</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
