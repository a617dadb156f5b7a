import { displayUsd, parseUsd } from "#domain/money";
import { paidSchedule, type InstallmentState, type PaidSchedule } from "#domain/paidSchedule";
import type { LoanTerms } from "#domain/schedule";
import type { WireLoan as Loan } from "#domain/wire/loan";

/** The note's terms as the schedule reads them, once it has a start on-chain. */
export function loanTerms(loan: Loan): LoanTerms | null {
  if (!loan.noteStart || !loan.principal) return null;
  return { principal: parseUsd(loan.principal), rateBps: Math.round(loan.interestRate * 100), termMonths: loan.termMonths, start: BigInt(Math.floor(Date.parse(loan.noteStart) / 1000)) };
}

/** Each installment with what was really paid on it and what is still owed (domain/paidSchedule.ts). */
export function installments(terms: LoanTerms, repaid: bigint, completed: boolean, nowSeconds: bigint, finalPayment: bigint | null = null): PaidSchedule {
  return paidSchedule(terms, repaid, { completed, finalPayment, now: nowSeconds });
}

const BADGE: Record<InstallmentState, [string, string]> = {
  paid: ["badge--success", "Paid"],
  due: ["badge--neutral", "Due"],
  late: ["badge--danger", "Late"],
  settled: ["badge--neutral", "Settled by payoff"],
};

/** The amortisation schedule computed by the code the contract is proven against: what was paid on each row, and the payoff. */
export function ScheduleTable({ schedule, payoffDate }: { schedule: PaidSchedule; payoffDate?: string | null }) {
  return (
    <div className="table-wrap">
      <table className="table table--cards" data-testid="schedule">
        <thead>
          <tr>
            <th>#</th>
            <th>Due date</th>
            <th>Payment</th>
            <th>Interest</th>
            <th>Principal</th>
            <th>Balance after</th>
            <th>Paid</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {schedule.rows.map((r) => (
            <tr key={r.index} data-state={r.state}>
              <td data-label="#">{r.index}</td>
              <td data-label="Due date">{new Date(Number(r.dueDate) * 1000).toLocaleDateString()}</td>
              <td data-label="Payment">
                {displayUsd(r.payment)}
                {r.owed > 0n && r.owed < r.payment ? <span className="small muted"> ({displayUsd(r.owed)} left)</span> : null}
              </td>
              <td data-label="Interest">{displayUsd(r.interest)}</td>
              <td data-label="Principal">{displayUsd(r.principal)}</td>
              <td data-label="Balance after">{displayUsd(r.balance)}</td>
              <td data-label="Paid" data-testid="row-paid">
                {r.paid > 0n ? displayUsd(r.paid) : "—"}
              </td>
              <td data-label="Status">
                <span className={`badge ${BADGE[r.state][0]}`}>{BADGE[r.state][1]}</span>
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {schedule.payoff !== null && (
            <tr data-testid="payoff-line">
              <th scope="row" colSpan={6}>
                Early payoff{payoffDate ? ` on ${new Date(payoffDate).toLocaleDateString()}` : ""}: the principal still owed and the interest accrued to that day
              </th>
              <td data-label="Paid">{displayUsd(schedule.payoff)}</td>
              <td data-label="Status">
                <span className="badge badge--success">Paid</span>
              </td>
            </tr>
          )}
          <tr data-testid="total-paid">
            <th scope="row" colSpan={6}>
              Total paid
            </th>
            <td data-label="Paid">{displayUsd(schedule.totalPaid)}</td>
            <td />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
