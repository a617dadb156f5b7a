import type { UseQueryResult } from "@tanstack/react-query";
import type { Summary } from "../api/getSummary";
import { usd } from "../../../lib/format";

/** The four tiles: Portfolio Value, Active Loans, Total Borrowed, NFT Loans (defined in docs/architecture.md). */
export function StatTiles({ summary }: { summary: UseQueryResult<Summary> }) {
  const s = summary.data;
  const tiles = [
    { label: "Portfolio Value", value: s ? usd(s.portfolioValue) : null, hint: s ? `${s.notesHeld} note${s.notesHeld === 1 ? "" : "s"} held · ${usd(s.creditsAvailable)} to withdraw` : "" },
    { label: "Active Loans", value: s ? `${s.activeLoans} of ${s.totalLoans}` : null, hint: "Your active loans of all your requests" },
    { label: "Total Borrowed", value: s ? usd(s.totalBorrowed) : null, hint: "Principal funded to your wallet" },
    { label: "NFT Loans", value: s ? String(s.nftLoans) : null, hint: "Your loans with a minted note" },
  ];
  if (summary.isError) {
    return (
      <div className="alert alert--danger mt" role="alert">
        Could not load your figures.{" "}
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => void summary.refetch()}>
          Retry
        </button>
      </div>
    );
  }
  return (
    <div className="grid-4 mt" data-testid="dashboard-tiles">
      {tiles.map((t) => (
        <div key={t.label} className="card stat" data-testid={`tile-${t.label.toLowerCase().replace(/\W+/g, "-")}`}>
          <div className="stat__label">{t.label}</div>
          <div className="stat__value" aria-busy={t.value === null}>
            {t.value ?? "…"}
          </div>
          <div className="small muted">{t.hint}</div>
        </div>
      ))}
    </div>
  );
}
