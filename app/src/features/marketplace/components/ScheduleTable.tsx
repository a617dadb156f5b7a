import { parseUsd, displayUsd } from "../../../../../domain/money";
import { scheduleRows } from "../../../../../domain/schedule";
import type { NftDetails } from "../api/getNft";

/** The note's amortisation schedule, computed by the same code the contract is proven against; paid rows marked. */
export function ScheduleTable({ nft }: { nft: NftDetails }) {
  const rows = scheduleRows({ principal: parseUsd(nft.terms.principal), rateBps: nft.terms.rateBps, termMonths: nft.terms.termMonths, start: BigInt(nft.terms.startTime) });
  const repaid = parseUsd(nft.totalRepaid);
  let cumulative = 0n;
  return (
    <div className="table-wrap">
      <table className="table" data-testid="schedule">
        <thead><tr><th>#</th><th>Due</th><th>Payment</th><th>Interest</th><th>Principal</th><th>Balance</th><th>Status</th></tr></thead>
        <tbody>
          {rows.map((r) => {
            cumulative += r.payment;
            const paid = nft.burned || cumulative <= repaid;
            return (
              <tr key={r.index}>
                <td>{r.index}</td>
                <td>{new Date(Number(r.dueDate) * 1000).toLocaleDateString()}</td>
                <td>{displayUsd(r.payment)}</td>
                <td>{displayUsd(r.interest)}</td>
                <td>{displayUsd(r.principal)}</td>
                <td>{displayUsd(r.balance)}</td>
                <td>{paid ? <span className="badge badge--success">Paid</span> : <span className="badge badge--neutral">Due</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
