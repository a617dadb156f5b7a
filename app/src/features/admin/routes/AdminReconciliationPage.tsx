import type { ReconciliationField, TreasuryCategory, WireReconciliation, WireReconciliationDifference } from "#domain/wire/reconciliation";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import { countText } from "../../../lib/format";
import { displayUsdExact, parseUsd } from "#domain/money";

/** An auditor checks amounts to the unit: every figure of the reconciliation is exact (micro-dollars). */
const usdExact = (value: string) => displayUsdExact(parseUsd(value));
import { useReconciliation } from "../api/getReconciliation";
import { AdminPage } from "../components/AdminPage";
import { QueryState } from "../components/QueryState";

const FIELD_LABELS: Record<ReconciliationField, string> = {
  exists: "Note exists",
  tokenId: "Token id",
  mintStatus: "Mint status",
  principal: "Principal",
  repaid: "Repaid",
  feesPaidThrough: "Late fees paid through installment",
  status: "Status",
  owner: "Owner",
  holder: "Holder",
  collateral: "Collateral in escrow",
  credits: "Credits to withdraw",
};
const MONEY_FIELDS = new Set<ReconciliationField>(["principal", "repaid", "credits"]);

const CATEGORY_LABELS: Record<TreasuryCategory, string> = {
  funding: "Funding (minted to the treasury)",
  principalLent: "Principal lent",
  creditsWithdrawn: "Repayment credits withdrawn",
  saleProceeds: "Sale proceeds (net of fees)",
  fees: "Marketplace fees received",
  unexplained: "Unexplained",
};

/** /admin/reconciliation: what an auditor checks, the notes across chain, mirror and database, and the treasury's cash. */
export function AdminReconciliationPage() {
  const query = useReconciliation();
  const report = query.data?.report;
  return (
    <AdminPage
      title="Reconciliation"
      subtitle={query.data ? query.data.message : "The chain, the mirror and the loans table compared at one block, and the treasury's cash proven from the chain's logs."}
      actions={
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => void query.refetch()} disabled={query.isFetching}>
          {query.isFetching ? "Reading the chain…" : "Run again"}
        </button>
      }
    >
      <QueryState loading={query.isLoading} error={query.isError} empty={false} errorText="Failed to reconcile. Please try again." emptyText="" onRetry={() => void query.refetch()}>
        {report && <Report report={report} verdict={query.data!.message} />}
      </QueryState>
    </AdminPage>
  );
}

function Report({ report, verdict }: { report: WireReconciliation; verdict: string }) {
  return (
    <div className="stack recon" data-testid="reconciliation">
      <div className={`alert ${report.clean ? "alert--success" : "alert--danger"}`} role="status" data-testid="reconciliation-verdict">
        <strong>{verdict}</strong>
        <div className="small muted">
          {countText(report.notesCompared, "note")} compared · chain read at block {report.blockNumber}
          {report.mirrorBlock !== null ? ` · mirror at block ${report.mirrorBlock}` : " · the mirror has not started"}
        </div>
      </div>

      <section className="stack">
        <h2 className="recon__title">Differences</h2>
        {report.differences.length === 0 ? (
          <div className="empty">No differences: every note and every holder's credits agree.</div>
        ) : (
          <ul className="recon__list" data-testid="reconciliation-differences">
            {report.differences.map((d, i) => (
              <Difference key={i} difference={d} />
            ))}
          </ul>
        )}
      </section>

      <Treasury report={report} />
    </div>
  );
}

function Difference({ difference: d }: { difference: WireReconciliationDifference }) {
  const show = (value: string | null) => (value === null ? "—" : value === "missing" ? <em>missing</em> : MONEY_FIELDS.has(d.field) ? usdExact(value) : <span className="mono">{value}</span>);
  return (
    <li className="card recon__item">
      <div className="recon__head">
        <strong>{d.tokenId !== null ? <ExplorerLink kind="token" id={d.tokenId} /> : <ExplorerLink kind="address" id={d.account ?? ""} />}</strong>
        <span className="badge badge--danger">{FIELD_LABELS[d.field]}</span>
      </div>
      <dl className="recon__values">
        <dt>Chain</dt>
        <dd>{show(d.chain)}</dd>
        <dt>Mirror</dt>
        <dd>{show(d.mirror)}</dd>
        <dt>Database</dt>
        <dd>{show(d.database)}</dd>
      </dl>
    </li>
  );
}

function Treasury({ report }: { report: WireReconciliation }) {
  const t = report.treasury;
  return (
    <section className="stack" data-testid="reconciliation-treasury">
      <h2 className="recon__title">Treasury cash</h2>
      <p className="small muted" style={{ margin: 0 }}>
        Every stablecoin transfer into and out of <ExplorerLink kind="address" id={t.address} /> from block {t.fromBlock} to {report.blockNumber}, each matched to the contract event of its
        transaction.
      </p>
      <dl className="card recon__lines">
        <dt>Opening balance</dt>
        <dd>{usdExact(t.openingBalance)}</dd>
        {t.lines.map((line) => (
          <Line key={line.category} label={`${CATEGORY_LABELS[line.category]} · ${countText(line.transfers, "transfer")}`} inflow={line.inflow} outflow={line.outflow} />
        ))}
        <dt>Inflows − outflows</dt>
        <dd>
          {usdExact(t.inflows)} − {usdExact(t.outflows)}
        </dd>
        <dt>Closing balance</dt>
        <dd>{usdExact(t.closingBalance)}</dd>
      </dl>
      <p className={t.balances ? "small" : "small text-danger"} style={{ margin: 0 }}>
        {t.balances ? "Balances: closing − opening equals inflows − outflows, to the micro-dollar." : "Does not balance: closing − opening differs from inflows − outflows."}
      </p>
      <p className={t.credits.balances ? "small" : "small text-danger"} style={{ margin: 0 }}>
        Repayments credited {usdExact(t.credits.credited)} (of which late fees {usdExact(t.credits.lateFees)}) − withdrawn {usdExact(t.credits.withdrawn)} {t.credits.balances ? "=" : "≠"} still to
        withdraw {usdExact(t.credits.owed)}.
      </p>
      {t.unexplained.length > 0 && (
        <ul className="recon__list" data-testid="reconciliation-unexplained">
          {t.unexplained.map((u) => (
            <li key={`${u.txHash}:${u.logIndex}`} className="card recon__item">
              <div className="recon__head">
                <ExplorerLink kind="tx" id={u.txHash} />
                <span className="badge badge--warning">Unexplained {u.direction === "in" ? "inflow" : "outflow"}</span>
              </div>
              <div className="small">
                {usdExact(u.amount)} {u.direction === "in" ? "from" : "to"} <ExplorerLink kind="address" id={u.direction === "in" ? u.from : u.to} /> at block {u.blockNumber}
              </div>
            </li>
          ))}
        </ul>
      )}
      {t.unfundedOriginations.length > 0 && (
        <ul className="recon__list">
          {t.unfundedOriginations.map((o) => (
            <li key={o.txHash} className="card recon__item small">
              Note <ExplorerLink kind="token" id={o.tokenId} /> was originated for {usdExact(o.principal)} without a treasury transfer in <ExplorerLink kind="tx" id={o.txHash} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Line({ label, inflow, outflow }: { label: string; inflow: string; outflow: string }) {
  const amount = outflow !== "0" && inflow === "0" ? `− ${usdExact(outflow)}` : outflow === "0" ? `+ ${usdExact(inflow)}` : `+ ${usdExact(inflow)} − ${usdExact(outflow)}`;
  return (
    <>
      <dt>{label}</dt>
      <dd>{amount}</dd>
    </>
  );
}
