import { useMemo, useState } from "react";
import { formatUsdAmount, isUsd, parseUsd } from "#domain/money";
import { purposeText, usd } from "../../../lib/format";
import { NFT_MESSAGES } from "#domain/marketplaceTerms";
import { monitorStatus, type LoanStatus } from "#domain/statuses";
import { useAllNfts, type AdminNft } from "../api/getAllNfts";
import { useAdminLoans } from "../api/getAdminLoans";
import { AdminPage } from "../components/AdminPage";
import { StatCard } from "../components/StatCard";
import { StatusBadge } from "../../../components/StatusBadge";
import { ServicingBadge } from "../../../components/ServicingBadge";
import { QueryState } from "../components/QueryState";
import { Pagination } from "../components/Pagination";
import { Modal } from "../components/Modal";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import { useDebounced } from "../../../lib/useDebounced";
import { useAdminLive } from "../components/useAdminLive";
import { dateText, percentText } from "../components/money";

const STATUSES = ["all", "listed", "unlisted", "funded", "repaying", "completed", "defaulted", "minting", "failed"] as const;
const SORTS = { newest: "Newest", amount: "Amount (highest)", interestRate: "Interest rate (lowest)", termMonths: "Term (shortest)" } as const;
type Sort = keyof typeof SORTS;

const micro = (amount: string | null | undefined) => (amount && isUsd(amount) ? parseUsd(amount) : 0n);

/** An active loan is "funded" until something is repaid, then "repaying". */
function loanStateOf(nft: AdminNft, repaid: Map<string, string>) {
  return monitorStatus(nft.metadata.loanDetails.status as LoanStatus, micro(repaid.get(nft.loanId)));
}

function matches(nft: AdminNft, status: string, repaid: Map<string, string>) {
  if (status === "all") return true;
  return nft.marketplaceStatus === status || nft.mintStatus === status || loanStateOf(nft, repaid) === status;
}

const compare: Record<Sort, (a: AdminNft, b: AdminNft) => number> = {
  newest: (a, b) => Number(b.tokenId) - Number(a.tokenId),
  amount: (a, b) => (micro(b.metadata.loanDetails.amount) > micro(a.metadata.loanDetails.amount) ? 1 : micro(b.metadata.loanDetails.amount) < micro(a.metadata.loanDetails.amount) ? -1 : 0),
  interestRate: (a, b) => a.metadata.loanDetails.interestRate - b.metadata.loanDetails.interestRate,
  termMonths: (a, b) => a.metadata.loanDetails.termMonths - b.metadata.loanDetails.termMonths,
};

/** /admin/marketplace, read from the chain mirror: stats, search, status, minimum amount, sort, cards, details. */
export function AdminMarketplacePage() {
  useAdminLive();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState("all");
  const [minAmount, setMinAmount] = useState("");
  const [sort, setSort] = useState<Sort>("newest");
  const [open, setOpen] = useState<AdminNft | null>(null);
  const query = useAllNfts(page);
  // Repayments come with the loans; the notes' records carry the chain's owner and listing.
  const loans = useAdminLoans({ page: 1, limit: 100, sortBy: "requestDate", sortOrder: "desc" });
  const repaid = useMemo(() => new Map((loans.data?.loans ?? []).map((l) => [l._id, l.totalRepaid])), [loans.data]);
  const servicing = useMemo(() => new Map((loans.data?.loans ?? []).map((l) => [l._id, l.servicing])), [loans.data]);
  const servicingOf = (n: AdminNft) => n.servicing ?? servicing.get(n.loanId) ?? null;
  const debounced = useDebounced(search.trim().toLowerCase());
  const nfts = useMemo(() => query.data?.nfts ?? [], [query.data]);

  const shown = useMemo(() => {
    const min = isUsd(minAmount.trim()) ? parseUsd(minAmount.trim()) : 0n;
    return nfts
      .filter((n) => matches(n, status, repaid))
      .filter((n) => micro(n.metadata.loanDetails.amount) >= min)
      .filter((n) => !debounced || [n.tokenId, `#${n.tokenId}`, n.borrowerEmail ?? "", n.metadata.loanDetails.purpose, n.ownerAddress ?? ""].some((f) => f.toLowerCase().includes(debounced)))
      .sort(compare[sort]);
  }, [nfts, status, minAmount, debounced, sort, repaid]);

  const listed = nfts.filter((n) => n.marketplaceStatus === "listed");
  const listedValue = listed.reduce((sum, n) => sum + micro(n.listingPrice), 0n);
  const owners = new Set(nfts.filter((n) => n.isActive && n.ownerAddress).map((n) => n.ownerAddress!.toLowerCase()));

  return (
    <AdminPage title="Marketplace Monitor" subtitle="Every note from the chain mirror: listed, held, minting and failed.">
      <div className="grid-4">
        <StatCard label="Notes" value={query.data ? query.data.pagination.total : "…"} testId="monitor-total" />
        <StatCard label="Listed" value={query.data ? listed.length : "…"} hint={query.data ? `${usd(formatUsdAmount(listedValue))} asked` : undefined} />
        <StatCard label="Holders" value={query.data ? owners.size : "…"} />
        <StatCard label="Mint failures" value={query.data ? nfts.filter((n) => n.mintStatus === "failed").length : "…"} />
      </div>
      <div className="admin-toolbar">
        <div className="field field--grow">
          <label htmlFor="mk-search">Search</label>
          <input id="mk-search" type="search" placeholder="#token, borrower email, purpose or owner" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="mk-status">Status</label>
          <select id="mk-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s === "all" ? "All statuses" : s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="mk-min">Minimum amount (USD)</label>
          <input id="mk-min" inputMode="decimal" value={minAmount} onChange={(e) => setMinAmount(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="mk-sort">Sort</label>
          <select id="mk-sort" value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
            {Object.entries(SORTS).map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </div>
      </div>
      <QueryState
        loading={query.isLoading}
        error={query.isError}
        empty={!shown.length}
        errorText={NFT_MESSAGES.loadFailed}
        emptyText={nfts.length ? "No notes match these filters" : "No notes minted yet"}
        onRetry={() => void query.refetch()}
      >
        <div className="admin-cards" data-testid="monitor-cards">
          {shown.map((n) => (
            <article key={n._id} className="card admin-card" data-testid="monitor-card">
              <div className="row gap" style={{ justifyContent: "space-between" }}>
                <strong>Note #{n.tokenId}</strong>
                <StatusBadge status={n.marketplaceStatus} />
              </div>
              <div className="stat__value" style={{ fontSize: "1.25rem" }}>
                {usd(n.metadata.loanDetails.amount)}
              </div>
              <div className="muted small">
                {percentText(n.metadata.loanDetails.interestRate)} · {n.metadata.loanDetails.termMonths} months · {purposeText(n.metadata.loanDetails.purpose)}
              </div>
              <div className="muted small">
                Loan {loanStateOf(n, repaid)}
                {n.listingPrice ? ` · asking ${usd(n.listingPrice)}` : ""}
              </div>
              <ServicingBadge servicing={servicingOf(n)} testId="monitor-servicing" />
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => setOpen(n)}>
                Details
              </button>
            </article>
          ))}
        </div>
        <Pagination page={page} totalPages={query.data?.pagination.totalPages ?? 1} onPage={setPage} />
      </QueryState>
      {open && (
        <Modal title={open.metadata.name} onClose={() => setOpen(null)} testId="monitor-details">
          <p className="muted">{open.metadata.description}</p>
          <dl className="details">
            <div>
              <dt>Marketplace</dt>
              <dd>
                <StatusBadge status={open.marketplaceStatus} />
              </dd>
            </div>
            <div>
              <dt>Loan</dt>
              <dd>
                <StatusBadge status={loanStateOf(open, repaid)} />
              </dd>
            </div>
            <div>
              <dt>Repaid</dt>
              <dd>{usd(repaid.get(open.loanId) ?? "0")}</dd>
            </div>
            <div>
              <dt>Payments</dt>
              <dd>{servicingOf(open) ? <ServicingBadge servicing={servicingOf(open)} /> : "—"}</dd>
            </div>
            <div>
              <dt>Borrower</dt>
              <dd>{open.borrowerEmail ?? "—"}</dd>
            </div>
            <div>
              <dt>Holder</dt>
              <dd>{open.ownerAddress ? <ExplorerLink kind="address" id={open.ownerAddress} /> : "—"}</dd>
            </div>
            <div>
              <dt>Listing price</dt>
              <dd>{open.listingPrice ? usd(open.listingPrice) : "Not listed"}</dd>
            </div>
            <div>
              <dt>Listed on</dt>
              <dd>{dateText(open.listingDate)}</dd>
            </div>
            <div>
              <dt>Approved</dt>
              <dd>{dateText(open.metadata.loanDetails.approvalDate)}</dd>
            </div>
            <div>
              <dt>Mint transaction</dt>
              <dd>{open.transactionHash ? <ExplorerLink kind="tx" id={open.transactionHash} /> : (open.mintError ?? "—")}</dd>
            </div>
          </dl>
        </Modal>
      )}
    </AdminPage>
  );
}
