import { lazy, Suspense, useEffect, useEffectEvent, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Field } from "../../../components/Field";
import { PageHeader } from "../../../components/PageHeader";
import { fieldErrors } from "../../../components/zodErrors";
import { marketplaceQuerySchema } from "#domain/schemas/nfts";
import { Spinner } from "../../../components/Spinner";
import { useRealtimeEvent } from "../../../lib/realtime";
import { NFT_MESSAGES, RATE_BANDS, AMOUNT_BANDS } from "#domain/marketplaceTerms";
import { percentText, usd } from "../../../lib/format";
import { marketplaceKeys } from "../../../lib/nfts/keys";
import type { BrowseQuery } from "../../../lib/nfts/types";
import { StatTiles } from "../../../lib/StatTiles";
import { browseMarketplace } from "../api/browseMarketplace";
import { NoteCard, NoteTable } from "../components/NoteCard";
import { useDebounced } from "../../../lib/useDebounced";
import { useSession } from "../../../lib/session";
import { WithWallet } from "../../../lib/wallet/WithWallet";
import "../../../lib/nfts/nfts.css";

// The form and its wallet stack load only when an investor opens it: browsing stays as light as before.
const MatchingOfferForm = lazy(() => import("../components/MatchingOfferForm"));

const SORTS: { value: BrowseQuery["sort"]; label: string }[] = [
  { value: "newest", label: "Newest" },
  { value: "amount", label: "Amount (highest)" },
  { value: "interestRate", label: "Interest rate (lowest)" },
  { value: "termMonths", label: "Term (shortest)" },
];
const RATE_LABELS: Record<keyof typeof RATE_BANDS, string> = { low: "Low (under 8%)", medium: "Medium (8–12%)", high: "High (12% and over)" };
const AMOUNT_LABELS: Record<keyof typeof AMOUNT_BANDS, string> = { small: "Small (under $5,000)", medium: "Medium ($5,000–$15,000)", large: "Large ($15,000 and over)" };
const COLLATERAL_LABELS: Record<NonNullable<BrowseQuery["collateral"]>, string> = { nft: "NFT-secured", none: "Unsecured" };
const PAGE_SIZE = 20;

/** Spec 02 "Marketplace": live listings from the chain mirror; a failed load says so and offers Retry (never stand-in listings). */
export function MarketplacePage() {
  // The filters live in the address too, so Back from a note's page returns to the same list.
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(params.get("search") ?? "");
  const [sort, setSort] = useState<BrowseQuery["sort"]>(SORTS.some((s) => s.value === params.get("sort")) ? (params.get("sort") as BrowseQuery["sort"]) : "newest");
  const [minAmount, setMinAmount] = useState(params.get("minAmount") ?? "");
  const [maxAmount, setMaxAmount] = useState(params.get("maxAmount") ?? "");
  const [rateBand, setRateBand] = useState<string[]>((params.get("rateBand") ?? "").split(",").filter((b) => b in RATE_LABELS));
  const [amountBand, setAmountBand] = useState(params.get("amountBand") && params.get("amountBand")! in AMOUNT_LABELS ? params.get("amountBand")! : "");
  const [collateral, setCollateral] = useState<BrowseQuery["collateral"]>(
    params.get("collateral") === "nft" || params.get("collateral") === "none" ? (params.get("collateral") as "nft" | "none") : undefined,
  );
  const [view, setView] = useState<"grid" | "list">(params.get("view") === "list" ? "list" : "grid");
  const [page, setPage] = useState(Math.max(1, Number(params.get("page")) || 1));
  const debouncedSearch = useDebounced(search, 300);
  const debouncedMin = useDebounced(minAmount, 300);
  const debouncedMax = useDebounced(maxAmount, 300);
  // The server's own rule for the amount filters: a wrong one is said on its field, and no stale cards stay up.
  const amountErrors = useMemo(() => {
    const parsed = marketplaceQuerySchema.safeParse({ minAmount: debouncedMin, maxAmount: debouncedMax });
    return parsed.success ? {} : fieldErrors(parsed.error);
  }, [debouncedMin, debouncedMax]);
  const amountsValid = !amountErrors.minAmount && !amountErrors.maxAmount;
  const query: BrowseQuery = {
    page,
    limit: PAGE_SIZE,
    sort,
    search: debouncedSearch.trim() || undefined,
    minAmount: debouncedMin.trim() || undefined,
    maxAmount: debouncedMax.trim() || undefined,
    rateBand,
    amountBand: amountBand ? [amountBand] : undefined,
    collateral,
  };
  const address = new URLSearchParams();
  if (query.search) address.set("search", query.search);
  if (sort !== "newest") address.set("sort", sort);
  if (query.minAmount) address.set("minAmount", query.minAmount);
  if (query.maxAmount) address.set("maxAmount", query.maxAmount);
  if (rateBand.length) address.set("rateBand", rateBand.join(","));
  if (amountBand) address.set("amountBand", amountBand);
  if (collateral) address.set("collateral", collateral);
  if (view === "list") address.set("view", "list");
  if (page > 1) address.set("page", String(page));
  const addressText = address.toString();
  // The filters write the address, never the other way round: a change of the address alone triggers nothing.
  const writeAddress = useEffectEvent((text: string) => {
    if (text !== params.toString()) setParams(new URLSearchParams(text), { replace: true });
  });
  useEffect(() => writeAddress(addressText), [addressText]);
  const queryClient = useQueryClient();
  const signedIn = useSession((s) => Boolean(s.user));
  const [offering, setOffering] = useState(false);
  const listings = useQuery({
    queryKey: marketplaceKeys.browse(query),
    queryFn: () => browseMarketplace(query),
    staleTime: 5 * 60_000,
    gcTime: 10 * 60_000,
    retry: 2,
    refetchOnWindowFocus: false,
    placeholderData: keepPreviousData,
    enabled: amountsValid,
  });
  // Every viewer sees a sale, a new listing or a price change as soon as the indexer commits it.
  useRealtimeEvent("marketplace:update", () => void queryClient.invalidateQueries({ queryKey: marketplaceKeys.all }));

  const reset = (apply: () => void) => {
    apply();
    setPage(1);
  };
  const stats = listings.data?.stats;
  const tiles = [
    { label: "Total Listed", value: stats ? String(stats.totalListed) : "—" },
    { label: "Total Value", value: stats ? usd(stats.totalValue) : "—" },
    { label: "Active Lenders", value: stats ? String(stats.activeLenders) : "—" },
    { label: "Avg. Rate", value: stats ? percentText(stats.avgRate) : "—" },
  ];
  const data = listings.data;

  return (
    <div className="container page stack">
      <PageHeader title="NFT Loan Marketplace" subtitle="Loan notes listed for sale. A note's buyer receives the borrower's repayments from then on." />
      <StatTiles tiles={tiles} label="Marketplace figures" />
      {signedIn && (
        <div className="stack">
          <div>
            <button type="button" className="btn btn--secondary" aria-expanded={offering} onClick={() => setOffering((o) => !o)} data-testid="matching-offer-toggle">
              {offering ? "Close the offer form" : "Offer on any matching note"}
            </button>
          </div>
          {offering && (
            <WithWallet>
              <Suspense fallback={<Spinner label="Loading the offer form" />}>
                <MatchingOfferForm />
              </Suspense>
            </WithWallet>
          )}
        </div>
      )}

      <section className="card stack" aria-label="Filters">
        <div className="mk-filters">
          <div className="field">
            <label htmlFor="mk-search">Search</label>
            <input id="mk-search" type="search" placeholder="Note #, purpose or address" value={search} onChange={(e) => reset(() => setSearch(e.target.value))} />
          </div>
          <div className="field">
            <label htmlFor="mk-sort">Sort by</label>
            <select id="mk-sort" value={sort} onChange={(e) => reset(() => setSort(e.target.value as BrowseQuery["sort"]))}>
              {SORTS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="mk-band">Amount</label>
            <select id="mk-band" value={amountBand} onChange={(e) => reset(() => setAmountBand(e.target.value))}>
              <option value="">Any amount</option>
              {(Object.keys(AMOUNT_LABELS) as (keyof typeof AMOUNT_LABELS)[]).map((b) => (
                <option key={b} value={b}>
                  {AMOUNT_LABELS[b]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="mk-collateral">Collateral</label>
            <select
              id="mk-collateral"
              value={collateral ?? ""}
              onChange={(e) => reset(() => setCollateral((e.target.value || undefined) as BrowseQuery["collateral"]))}
              data-testid="collateral-filter"
            >
              <option value="">Any</option>
              {(Object.keys(COLLATERAL_LABELS) as (keyof typeof COLLATERAL_LABELS)[]).map((c) => (
                <option key={c} value={c}>
                  {COLLATERAL_LABELS[c]}
                </option>
              ))}
            </select>
          </div>
          <Field id="mk-min" label="Min amount ($)" inputMode="decimal" value={minAmount} error={amountErrors.minAmount} onChange={(e) => reset(() => setMinAmount(e.target.value))} />
          <Field id="mk-max" label="Max amount ($)" inputMode="decimal" value={maxAmount} error={amountErrors.maxAmount} onChange={(e) => reset(() => setMaxAmount(e.target.value))} />
        </div>
        <div className="mk-toolbar">
          <fieldset className="mk-bands">
            <legend className="label">Interest rate</legend>
            {(Object.keys(RATE_LABELS) as (keyof typeof RATE_LABELS)[]).map((b) => (
              <label key={b}>
                <input type="checkbox" checked={rateBand.includes(b)} onChange={(e) => reset(() => setRateBand((bands) => (e.target.checked ? [...bands, b] : bands.filter((x) => x !== b))))} />
                {RATE_LABELS[b]}
              </label>
            ))}
          </fieldset>
          <div className="segmented mk-view" role="radiogroup" aria-label="View">
            <label>
              <input type="radio" name="mk-view" checked={view === "grid"} onChange={() => setView("grid")} /> Grid
            </label>
            <label>
              <input type="radio" name="mk-view" checked={view === "list"} onChange={() => setView("list")} /> List
            </label>
          </div>
        </div>
      </section>

      {/* The cards' note titles are h3s: this names their list, so the outline reads h1 → h2 → h3. */}
      <h2 className="sr-only">Listed notes</h2>
      {!amountsValid ? (
        <div className="empty" data-testid="marketplace-invalid-filters">
          <h3>Fix the amount filters to see listings</h3>
          <p>{amountErrors.minAmount ?? amountErrors.maxAmount}</p>
        </div>
      ) : listings.isError ? (
        <div className="alert alert--danger" role="alert" data-testid="marketplace-error">
          <div className="stack">
            <p>{NFT_MESSAGES.loadFailed}</p>
            <div>
              <button type="button" className="btn btn--secondary btn--sm" onClick={() => void listings.refetch()}>
                Retry
              </button>
            </div>
          </div>
        </div>
      ) : !data ? (
        <div className="center">
          <Spinner label="Loading marketplace" />
        </div>
      ) : data.nfts.length === 0 ? (
        <div className="empty" data-testid="marketplace-empty">
          <h3>{NFT_MESSAGES.noLoans}</h3>
          <p>Try other filters, or come back when new notes are listed.</p>
        </div>
      ) : (
        <>
          {view === "grid" ? (
            <div className="mk-grid" aria-busy={listings.isFetching}>
              {data.nfts.map((nft) => (
                <NoteCard key={nft.tokenId} nft={nft} />
              ))}
            </div>
          ) : (
            <NoteTable nfts={data.nfts} />
          )}
          {data.pagination.totalPages > 1 && (
            <nav className="mk-pager" aria-label="Pages">
              <button type="button" className="btn btn--ghost btn--sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Previous
              </button>
              <span className="small">
                Page {data.pagination.page} of {data.pagination.totalPages}
              </span>
              <button type="button" className="btn btn--ghost btn--sm" disabled={page >= data.pagination.totalPages} onClick={() => setPage((p) => p + 1)}>
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
