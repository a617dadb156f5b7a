import { Link, useParams } from "react-router";
import { isAxiosError } from "axios";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { usd } from "../../../lib/format";
import { useLoanStatement } from "../api/getLoanStatement";
import { downloadCsv } from "../components/csv";
import { loanStatementCsv } from "../components/loanStatementCsv";
import { StatementTable } from "../components/StatementTable";
import "../statements.css";

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString() : "—");
const short = (hash: string) => `${hash.slice(0, 10)}…`;

const FEE_KIND: Record<string, string> = { late_fee: "Late fee" };

/** /loans/{id}/statement: the loan's schedule, payments, fees and totals, printable and downloadable. */
export function LoanStatementPage() {
  const { id } = useParams();
  const statement = useLoanStatement(id);
  const back = (
    <Link to={`/loans/${id}`} className="btn btn--ghost no-print">
      Back to the loan
    </Link>
  );

  if (statement.isPending)
    return (
      <div className="container page" role="status">
        <Spinner /> Loading the statement…
      </div>
    );
  if (statement.isError) {
    const status = isAxiosError(statement.error) ? statement.error.response?.status : undefined;
    const text =
      status === 404 ? "This loan does not exist or is not yours." : status === 409 ? "This loan has no note on-chain yet, so it has no statement." : "Failed to load the statement. Please try again.";
    return (
      <div className="container page stack">
        <PageHeader title="Loan statement" actions={back} />
        <div className="alert alert--danger" role="alert" data-testid="statement-error">
          {text}{" "}
          {status !== 404 && status !== 409 && (
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => void statement.refetch()}>
              Retry
            </button>
          )}
        </div>
      </div>
    );
  }
  const s = statement.data;
  const t = s.totals;
  const actions = (
    <div className="row gap-sm no-print">
      <button type="button" className="btn btn--primary" onClick={() => downloadCsv(`loan-${s.tokenId}-statement.csv`, loanStatementCsv(s))}>
        Download CSV
      </button>
      <button type="button" className="btn btn--secondary" onClick={() => window.print()}>
        Print
      </button>
      {back}
    </div>
  );
  return (
    <div className="container page stack" data-testid="loan-statement">
      <PageHeader
        title={`Statement of loan #${s.tokenId}`}
        subtitle={`As of ${new Date(s.asOf).toLocaleString()} · ${usd(s.terms.principal)} at ${s.terms.interestRate}% over ${s.terms.termMonths} months from ${day(s.terms.start)}`}
        actions={actions}
      />
      <section className="card statement-totals" aria-label="Totals" data-testid="loan-statement-totals">
        <div>
          <span className="stat__label">Paid</span>
          <strong data-testid="total-paid">{usd(t.paid)}</strong>
        </div>
        <div>
          <span className="stat__label">Interest paid</span>
          <strong>{usd(t.interestPaid)}</strong>
        </div>
        <div>
          <span className="stat__label">Principal paid</span>
          <strong>{usd(t.principalPaid)}</strong>
        </div>
        <div>
          <span className="stat__label">Fees paid</span>
          <strong>{usd(t.feesPaid)}</strong>
        </div>
        <div>
          <span className="stat__label">Outstanding now</span>
          <strong>{usd(t.outstanding)}</strong>
        </div>
        <div>
          <span className="stat__label">Payoff now</span>
          <strong>{usd(t.payoff)}</strong>
        </div>
      </section>
      <StatementTable
        caption="Payments"
        testId="statement-payments"
        empty="No payments yet."
        head={["Date", "Amount", "Late fee", "Interest", "Principal", "Balance after", "Transaction"]}
        rows={s.payments.map((p) => [
          day(p.time),
          usd(p.amount),
          usd(p.lateFee),
          usd(p.interest),
          usd(p.principal),
          usd(p.balanceAfter),
          <code key="tx" title={p.txHash}>
            {short(p.txHash)}
          </code>,
        ])}
      />
      <StatementTable
        caption="Fees"
        testId="statement-fees"
        empty="No fees charged."
        head={["Date", "Kind", "Amount"]}
        rows={s.fees.map((f) => [day(f.time), FEE_KIND[f.kind] ?? f.kind, usd(f.amount)])}
      />
      <StatementTable
        caption="Schedule"
        testId="statement-schedule"
        empty="No schedule."
        head={["#", "Due date", "Payment", "Interest", "Principal", "Balance after"]}
        rows={s.schedule.map((r) => [r.index, day(r.dueDate), usd(r.payment), usd(r.interest), usd(r.principal), usd(r.balanceAfter)])}
      />
    </div>
  );
}
