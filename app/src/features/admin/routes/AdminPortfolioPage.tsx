import { useTreasury } from "../api/getTreasury";
import { TreasuryWithdrawal } from "../components/TreasuryWithdrawal";
import { TreasuryOffers } from "../components/TreasuryOffers";
import { AdminPage } from "../components/AdminPage";
import { StatCard } from "../components/StatCard";
import { QueryState } from "../components/QueryState";
import { TreasuryNoteRow } from "../components/TreasuryNoteRow";
import { ServicingBadge } from "../../../components/ServicingBadge";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import { useAdminLive } from "../components/useAdminLive";
import { usd } from "../../../lib/format";
import { isUsd, parseUsd } from "#domain/money";

/** The deploy approves the maximum: shown as what it means rather than a 78-digit number. */
const UNLIMITED = 2n ** 128n;
const allowanceText = (allowance: string) => (isUsd(allowance) && parseUsd(allowance) >= UNLIMITED ? "Unlimited" : usd(allowance));

/** /admin/portfolio, the treasury: balance, allowance, held notes with reprice/unlist, credits with withdraw, offers on its notes to accept; each after a review. */
export function AdminPortfolioPage() {
  useAdminLive();
  const treasury = useTreasury();
  const t = treasury.data;

  return (
    <AdminPage
      title="Treasury Portfolio"
      subtitle={
        t ? (
          <>
            The lender of record, <ExplorerLink kind="address" id={t.address} />: its notes, listings and repayments.
          </>
        ) : (
          "Notes held by the treasury: reprice, unlist and withdraw repayments."
        )
      }
    >
      <QueryState
        loading={treasury.isLoading}
        error={treasury.isError}
        empty={false}
        errorText="Failed to read the treasury from the chain. Please try again."
        emptyText=""
        onRetry={() => void treasury.refetch()}
      >
        {t && (
          <>
            {!t.canFundNextApproval && (
              <div className="alert alert--warning" role="status">
                The treasury cannot fund the largest pending request ({usd(t.nextApproval)}): top up its balance or allowance.
              </div>
            )}
            <div className="grid-4">
              <StatCard label="Balance" value={usd(t.balance)} testId="treasury-balance" />
              <StatCard label="Allowance to the note contract" value={allowanceText(t.allowance)} />
              <StatCard label="Notes held" value={t.notes.length} hint={`${t.listings.length} listed${t.lateNotes.length ? `, ${t.lateNotes.length} late` : ""}`} />
              <StatCard label="Repayments to withdraw" value={usd(t.credits)} hint={<TreasuryWithdrawal credits={t.credits} treasury={t.address} />} />
            </div>
            {t.lateNotes.length > 0 && (
              <div className="card" data-testid="treasury-late-notes">
                <h2 className="section-title">Late notes</h2>
                <p className="small muted">Their borrowers are past due: the listings at par wait until each loan is current again, and no order fills meanwhile.</p>
                <ul className="list">
                  {t.lateNotes.map((n) => (
                    <li key={n.tokenId} className="row gap-sm">
                      <span>Note #{n.tokenId}</span>
                      <ServicingBadge servicing={n.servicing} testId={`treasury-late-${n.tokenId}`} />
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <TreasuryOffers />
            <h2 className="section-title">Notes held by the treasury</h2>
            {t.notes.length ? (
              <div className="card table-wrap">
                <table className="table table--cards">
                  <thead>
                    <tr>
                      <th>Note</th>
                      <th>Loan</th>
                      <th>Principal</th>
                      <th>Repaid</th>
                      <th>Listing</th>
                      <th>Price</th>
                    </tr>
                  </thead>
                  <tbody>
                    {t.notes.map((n) => (
                      <TreasuryNoteRow key={n.tokenId} note={n} />
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <div className="empty">The treasury holds no notes: approved loans mint their notes here.</div>
            )}
          </>
        )}
      </QueryState>
    </AdminPage>
  );
}
