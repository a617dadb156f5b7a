import { displayUsd, parseUsd } from "#domain/money";
import { scheduleRows, type LoanTerms } from "#domain/schedule";
import type { WireLoan as Loan } from "#domain/wire/loan";

export type InstallmentState = "paid" | "due" | "late";

/** The note's terms as the schedule reads them, once it has a start on-chain. */
export function loanTerms(loan: Loan): LoanTerms | null {
  if (!loan.noteStart || !loan.principal) return null;
  return { principal: parseUsd(loan.principal), rateBps: Math.round(loan.interestRate * 100), termMonths: loan.termMonths, start: BigInt(Math.floor(Date.parse(loan.noteStart) / 1000)) };
}

/** Each installment with what is still owed on it and whether it is paid, due, or late. */
export function installments(terms: LoanTerms, repaid: bigint, completed: boolean, nowSeconds: bigint) {
  let cumulative = 0n;
  return scheduleRows(terms).map((row) => {
    cumulative += row.payment;
    const paid = completed || cumulative <= repaid;
    const owed = paid ? 0n : cumulative - repaid > row.payment ? row.payment : cumulative - repaid;
    const state: InstallmentState = paid ? "paid" : row.dueDate < nowSeconds ? "late" : "due";
    return { ...row, owed, state };
  });
}

const BADGE: Record<InstallmentState, [string, string]> = { paid: ["badge--success", "Paid"], due: ["badge--neutral", "Due"], late: ["badge--danger", "Late"] };

/** The amortisation schedule computed by the code the contract is proven against, with paid, due and late rows. */
export function ScheduleTable({ rows }: { rows: ReturnType<typeof installments> }) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid="schedule">
        <thead><tr><th>#</th><th>Due date</th><th>Payment</th><th>Interest</th><th>Principal</th><th>Balance after</th><th>Status</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.index} data-state={r.state}>
              <td>{r.index}</td>
              <td>{new Date(Number(r.dueDate) * 1000).toLocaleDateString()}</td>
              <td>{displayUsd(r.payment)}{r.state !== "paid" && r.owed < r.payment ? <span className="small muted"> ({displayUsd(r.owed)} left)</span> : null}</td>
              <td>{displayUsd(r.interest)}</td>
              <td>{displayUsd(r.principal)}</td>
              <td>{displayUsd(r.balance)}</td>
              <td><span className={`badge ${BADGE[r.state][0]}`}>{BADGE[r.state][1]}</span></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
