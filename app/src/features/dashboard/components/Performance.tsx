import type { UseQueryResult } from "@tanstack/react-query";
import type { Summary } from "../api/getSummary";
import { usd } from "../../../lib/format";

/** Computed from the mirror: installments paid by their due date, what was repaid, and interest earned on notes held. */
export function Performance({ summary }: { summary: UseQueryResult<Summary> }) {
  const p = summary.data?.performance;
  return (
    <section className="card" data-testid="performance">
      <h2>Performance</h2>
      {summary.isPending ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : !p ? (
        <p className="muted">Unavailable right now.</p>
      ) : (
        <dl className="grid-3" style={{ margin: 0 }}>
          <div>
            <dt className="small muted">On-time repayment rate</dt>
            <dd style={{ margin: 0 }}>
              <strong>{p.onTimeRate === null ? "No installment due yet" : `${p.onTimeRate}%`}</strong>
              {p.installmentsDue ? (
                <span className="small muted">
                  {" "}
                  ({p.installmentsOnTime} of {p.installmentsDue} installments)
                </span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt className="small muted">Total repaid on your loans</dt>
            <dd style={{ margin: 0 }}>
              <strong>{usd(p.totalRepaid)}</strong>
            </dd>
          </div>
          <div>
            <dt className="small muted">Interest earned on notes held</dt>
            <dd style={{ margin: 0 }}>
              <strong>{usd(p.interestEarned)}</strong> <span className="small muted">of {usd(p.repaymentsReceived)} received</span>
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
