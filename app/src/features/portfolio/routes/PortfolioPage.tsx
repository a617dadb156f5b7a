import { useState } from "react";
import { Link } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { useRealtimeEvent } from "../../../lib/realtime";
import { WithWallet } from "../../../lib/wallet/WithWallet";
import { NFT_MESSAGES } from "#domain/schemas/nfts";
import { parseUsd } from "#domain/money";
import { percentText, usd } from "../../../lib/format";
import { getPortfolio } from "../../../lib/nfts/getPortfolio";
import { marketplaceKeys } from "../../../lib/nfts/keys";
import type { NftRecord } from "../../../lib/nfts/types";
import { StatTiles } from "../../../lib/StatTiles";
import { WalletBar } from "../../../lib/wallet/WalletBar";
import { Credits } from "../components/Credits";
import { HeldNoteCard, LoanNoteRow } from "../components/HeldNotes";
import { OffersSection } from "../components/OffersSection";
import "../../../lib/nfts/nfts.css";

type Filter = "all" | "active" | "listed" | "vaulted" | "defaulted";
type Sort = "amount" | "date" | "performance";
const PERFORMANCE_SCORE = { excellent: 4, good: 3, average: 2, poor: 1 } as const;

const FILTERS: Record<Filter, (n: NftRecord) => boolean> = {
  all: () => true,
  active: (n) => n.metadata.loanDetails.status === "active",
  listed: (n) => n.marketplaceStatus === "listed",
  vaulted: (n) => n.inVault,
  defaulted: (n) => n.metadata.loanDetails.status === "defaulted",
};
const SORTS: Record<Sort, (a: NftRecord, b: NftRecord) => number> = {
  amount: (a, b) => (parseUsd(b.metadata.loanDetails.amount) > parseUsd(a.metadata.loanDetails.amount) ? 1 : -1),
  date: (a, b) => b.startTime - a.startTime,
  performance: (a, b) => PERFORMANCE_SCORE[b.performance ?? "excellent"] - PERFORMANCE_SCORE[a.performance ?? "excellent"],
};

/** "Notes I hold" (wallet and vault) and "Notes of my loans"; only real holdings. */
export function PortfolioPage() {
  const queryClient = useQueryClient();
  const portfolio = useQuery({ queryKey: marketplaceKeys.portfolio, queryFn: getPortfolio, refetchInterval: 30_000, retry: 3 });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: marketplaceKeys.portfolio });
  useRealtimeEvent("marketplace:update", refresh);
  useRealtimeEvent("loan:status", refresh);
  useRealtimeEvent("loan:refinanced", refresh);
  useRealtimeEvent("loan:funded", refresh);
  const [filter, setFilter] = useState<Filter>("all");
  const [sort, setSort] = useState<Sort>("date");
  const [view, setView] = useState<"grid" | "list">("grid");
  const apply = (
    <Link to="/loans/request" className="btn btn--primary">
      Apply for Loan
    </Link>
  );
  const actions = (
    <div className="row gap-sm">
      {apply}
      <Link to="/nft-transfer" className="btn btn--ghost">
        Vault
      </Link>
      <Link to="/portfolio/statement" className="btn btn--ghost" data-testid="statement-link">
        Statement
      </Link>
    </div>
  );
  const header = <PageHeader title="My Portfolio" subtitle="Notes you hold, in your wallet or the vault, and the notes of your own loans." actions={actions} />;

  if (portfolio.isError) {
    return (
      <div className="container page stack">
        {header}
        <div className="alert alert--danger" role="alert" data-testid="portfolio-error">
          <div className="stack">
            <p>{NFT_MESSAGES.portfolioFailed}</p>
            <div>
              <button type="button" className="btn btn--secondary btn--sm" onClick={() => void portfolio.refetch()}>
                Refresh
              </button>
            </div>
          </div>
        </div>
      </div>
    );
  }
  if (!portfolio.data)
    return (
      <div className="container page stack">
        {header}
        <div className="center">
          <Spinner label="Loading portfolio" />
        </div>
      </div>
    );
  const p = portfolio.data;
  const held = p.nfts.filter(FILTERS[filter]).sort(SORTS[sort]);
  const tiles = [
    { label: "Total Loans", value: String(p.stats.totalLoans) },
    { label: "Total Value", value: usd(p.stats.totalValue) },
    { label: "Total Repaid", value: usd(p.stats.totalRepaid) },
    { label: "Avg. Rate", value: percentText(p.stats.avgRate) },
  ];
  const empty = p.nfts.length === 0 && p.loanNotes.length === 0 && p.credits.available === "0";

  return (
    <div className="container page stack">
      {header}
      <StatTiles tiles={tiles} label="Portfolio figures" />
      {empty ? (
        <div className="empty" data-testid="portfolio-empty">
          <h3>No notes yet</h3>
          <p>Buy a note on the marketplace, or apply for a loan: its note will show here.</p>
          <div className="row gap-sm center">
            {apply}
            <Link to="/marketplace" className="btn btn--ghost">
              Browse Marketplace
            </Link>
          </div>
        </div>
      ) : null}
      {empty ? (
        // Offers made wait in the wallet, not in the portfolio: someone holding no note yet still sees and cancels them.
        <WithWallet>
          <OffersSection />
        </WithWallet>
      ) : (
        <WithWallet>
          <div className="stack">
            <WalletBar />
            <Credits credits={p.credits} />
            <OffersSection />
            <section className="stack" aria-labelledby="held-title">
              <div className="mk-toolbar">
                <div>
                  <h2 id="held-title">Notes I hold</h2>
                  <p className="small muted" data-testid="health">
                    Portfolio health: {p.stats.activeCount} active of {p.stats.totalLoans} held · worth {usd(p.stats.portfolioValue)} with repayments waiting
                  </p>
                </div>
                <div className="row gap-sm" style={{ flexWrap: "wrap" }}>
                  <div className="field">
                    <label htmlFor="pf-filter">Status</label>
                    <select id="pf-filter" value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
                      <option value="all">All</option>
                      <option value="active">Active</option>
                      <option value="listed">Listed</option>
                      <option value="vaulted">In vault</option>
                      <option value="defaulted">Defaulted</option>
                    </select>
                  </div>
                  <div className="field">
                    <label htmlFor="pf-sort">Sort by</label>
                    <select id="pf-sort" value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
                      <option value="date">Date</option>
                      <option value="amount">Amount</option>
                      <option value="performance">Performance</option>
                    </select>
                  </div>
                  <div className="segmented mk-view" role="radiogroup" aria-label="View">
                    <label>
                      <input type="radio" name="pf-view" checked={view === "grid"} onChange={() => setView("grid")} /> Grid
                    </label>
                    <label>
                      <input type="radio" name="pf-view" checked={view === "list"} onChange={() => setView("list")} /> List
                    </label>
                  </div>
                </div>
              </div>
              {held.length === 0 ? (
                <p className="muted">{p.nfts.length === 0 ? "You hold no notes." : "No notes match this filter."}</p>
              ) : (
                <div className={view === "grid" ? "mk-grid" : "stack"}>
                  {held.map((n) => (
                    <HeldNoteCard key={n.tokenId} nft={n} actions />
                  ))}
                </div>
              )}
            </section>
            {p.loanNotes.length > 0 && (
              <section className="card stack" aria-labelledby="loan-notes-title">
                <h2 id="loan-notes-title">Notes of my loans</h2>
                <div className="table-wrap">
                  <table className="table table--cards">
                    <thead>
                      <tr>
                        <th>Note</th>
                        <th>Principal</th>
                        <th>Status</th>
                        <th>Held by</th>
                        <th>Repayment</th>
                        <th>
                          <span className="sr-only">Loan</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {p.loanNotes.map((n) => (
                        <LoanNoteRow key={n.tokenId} nft={n} />
                      ))}
                    </tbody>
                  </table>
                </div>
              </section>
            )}
          </div>
        </WithWallet>
      )}
    </div>
  );
}
