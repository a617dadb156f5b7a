import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { isAxiosError } from "axios";
import { statementPeriodQuery, type StatementPeriod } from "#domain/schemas/statements";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { usd } from "../../../lib/format";
import { usePortfolioStatement } from "../api/getPortfolioStatement";
import { downloadCsv } from "../components/csv";
import { portfolioStatementCsv } from "../components/portfolioStatementCsv";
import { StatementTable } from "../components/StatementTable";
import "../statements.css";

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString() : "—");
const rate = (value: number | null) => (value === null ? "—" : `${value.toFixed(2)}%`);
/** Returns may be losses: the wire writes them "-12.5", the money parser reads only amounts, so the sign goes aside. */
const signed = (value: string) => (value.startsWith("-") ? `−${usd(value.slice(1))}` : usd(value));
const orDash = (value: string | null) => (value === null ? "—" : signed(value));
const POSITION = { held: "Held", sold: "Sold", repaid: "Repaid" } as const;
const today = () => new Date().toISOString().slice(0, 10);
const defaultPeriod = (): StatementPeriod => ({ from: `${today().slice(0, 4)}-01-01`, to: today() });

/** /portfolio/statement: the investor's statement for a chosen period, printable and downloadable. */
export function PortfolioStatementPage() {
  const [draft, setDraft] = useState<StatementPeriod>(defaultPeriod);
  const [period, setPeriod] = useState<StatementPeriod>(defaultPeriod);
  const [problem, setProblem] = useState<string | null>(null);
  const statement = usePortfolioStatement(period);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = statementPeriodQuery.safeParse(draft);
    if (!checked.success) return setProblem(checked.error.issues[0].message);
    setProblem(null);
    setPeriod(checked.data);
  };
  const s = statement.data;
  const actions = (
    <div className="row gap-sm no-print">
      <button type="button" className="btn btn--primary" disabled={!s} onClick={() => s && downloadCsv(`statement-${s.from}-${s.to}.csv`, portfolioStatementCsv(s))}>
        Download CSV
      </button>
      <button type="button" className="btn btn--secondary" disabled={!s} onClick={() => window.print()}>
        Print
      </button>
      <Link to="/portfolio" className="btn btn--ghost">
        Back to portfolio
      </Link>
    </div>
  );
  const serverProblem = statement.isError && isAxiosError(statement.error) ? (statement.error.response?.data as { message?: string } | undefined)?.message : undefined;

  return (
    <div className="container page stack" data-testid="portfolio-statement">
      <PageHeader title="Investor statement" subtitle={s ? `${s.from} to ${s.to} · as of ${new Date(s.asOf).toLocaleString()}` : "Choose a period"} actions={actions} />
      <form className="card row gap-sm no-print" style={{ flexWrap: "wrap", alignItems: "flex-end" }} onSubmit={submit} aria-label="Period">
        <div className="field">
          <label htmlFor="st-from">From</label>
          <input id="st-from" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="st-to">To</label>
          <input id="st-to" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </div>
        <button type="submit" className="btn btn--secondary">
          Show
        </button>
        {problem && (
          <p className="field-error" role="alert" data-testid="period-error">
            {problem}
          </p>
        )}
      </form>
      {statement.isPending && (
        <div role="status">
          <Spinner /> Loading the statement…
        </div>
      )}
      {statement.isError && (
        <div className="alert alert--danger" role="alert" data-testid="statement-error">
          {serverProblem ?? "Failed to load the statement. Please try again."}{" "}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void statement.refetch()}>
            Retry
          </button>
        </div>
      )}
      {s && !s.walletAddress && <p className="alert alert--info">Link and verify a wallet to see its statement.</p>}
      {s && (
        <>
          <section className="card statement-totals" aria-label="Totals" data-testid="statement-totals">
            <div>
              <span className="stat__label">Bought</span>
              <strong>{usd(s.totals.bought)}</strong>
            </div>
            <div>
              <span className="stat__label">Sold</span>
              <strong>{usd(s.totals.sold)}</strong>
            </div>
            <div>
              <span className="stat__label">Fees</span>
              <strong>{usd(s.totals.fees)}</strong>
            </div>
            <div>
              <span className="stat__label">Repayments received</span>
              <strong data-testid="total-received">{usd(s.totals.received)}</strong>
            </div>
            <div>
              <span className="stat__label">Of which late fees</span>
              <strong data-testid="total-late-fees">{usd(s.totals.lateFeesReceived)}</strong>
            </div>
            <div>
              <span className="stat__label">Withdrawn</span>
              <strong>{usd(s.totals.withdrawn)}</strong>
            </div>
            <div>
              <span className="stat__label">Realised return</span>
              <strong>{signed(s.totals.realisedReturn)}</strong>
            </div>
            <div>
              <span className="stat__label">Expected return</span>
              <strong>{signed(s.totals.expectedReturn)}</strong>
            </div>
            <div>
              <span className="stat__label">Notes held at end</span>
              <strong data-testid="total-notes-held">{s.totals.notesHeld}</strong>
            </div>
            <div>
              <span className="stat__label">Outstanding principal</span>
              <strong data-testid="total-outstanding">{usd(s.totals.outstandingPrincipal)}</strong>
            </div>
            <div>
              <span className="stat__label">XIRR</span>
              <strong>{rate(s.totals.xirr)}</strong>
            </div>
          </section>
          {/* The fee comes out of the seller's price: on a buy it is shown, but it is not what the investor paid. */}
          <StatementTable
            caption="Notes bought and sold"
            testId="statement-trades"
            empty="No trades in this period."
            head={["Date", "Side", "Note", "Price", "Seller's fee", "Net"]}
            rows={s.trades.map((x) => [day(x.time), x.side === "buy" ? "Bought" : "Sold", `#${x.tokenId}`, usd(x.price), usd(x.fee), usd(x.net)])}
          />
          <StatementTable
            caption="Repayments received"
            testId="statement-receipts"
            empty="No repayments received in this period."
            head={["Date", "Note", "Amount", "Of which late fee", "How"]}
            rows={s.receipts.map((r) => [day(r.time), `#${r.tokenId}`, usd(r.amount), usd(r.lateFee), r.viaVault ? "As vault depositor" : "To the wallet"])}
          />
          <StatementTable
            caption="Credits withdrawn"
            testId="statement-withdrawals"
            empty="No withdrawals in this period."
            head={["Date", "Amount"]}
            rows={s.withdrawals.map((w) => [day(w.time), usd(w.amount)])}
          />
          <StatementTable
            caption="Returns by note"
            testId="statement-notes"
            empty="No notes in this period."
            head={["Note", "Position", "Price paid", "Received", "Sale proceeds", "Realised", "Expected", "IRR"]}
            rows={s.notes.map((n) => [
              `#${n.tokenId}`,
              POSITION[n.position],
              orDash(n.pricePaid),
              usd(n.received),
              usd(n.saleProceeds),
              orDash(n.realisedReturn),
              orDash(n.expectedReturn),
              rate(n.irr),
            ])}
          />
        </>
      )}
    </div>
  );
}
