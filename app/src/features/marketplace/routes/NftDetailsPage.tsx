import { lazy, Suspense } from "react";
import { Link, useParams } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { isAxiosError } from "axios";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { dateText, interestLine, percentText, purposeText, shortAddress, usd } from "../../../lib/format";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import { TokenHistory } from "../../../lib/explorer/TokenHistory";
import { marketplaceKeys } from "../../../lib/nfts/keys";
import { useRealtimeEvent } from "../../../lib/realtime";
import { useSession } from "../../../lib/session";
import { ListingLapsed } from "../../../lib/nfts/ListingLapsed";
import { WithWallet } from "../../../lib/wallet/WithWallet";
import type { NftDetails } from "../api/getNft";
import { getNotePage } from "../api/getNotePage";
import { getOwnership } from "../api/getOwnership";
import { OwnerHistory, RepaymentHistory } from "../components/NoteHistory";
import { ScheduleTable } from "../components/ScheduleTable";
import { NoteValue } from "../components/NoteValue";
import { Fold } from "../../../components/Fold";
import { useOrderBook } from "../../../lib/orders/getOrderBook";
import { parBreakdown } from "../../../lib/orders/parWords";
import { orderPriceNow } from "../../../lib/orders/orderPriceNow";
import { payoffSplitOf } from "../../../lib/servicing/payoffSplitOf";
import { bpsText } from "../../../lib/orders/bpsText";
import { ServicingBadge } from "../../../components/ServicingBadge";
import { OrderBook } from "../components/OrderBook";
import { NoteCollateral } from "../components/NoteCollateral";
import { SignInToAct } from "../components/SignInToAct";
import { formatUsdAmount, parseUsd } from "#domain/money";
import "../../../lib/nfts/nfts.css";

/** Micro-dollars as the wire's decimal string for `usd`, which shows null as a dash. */
const wireUsd = (micro: bigint | null) => (micro === null ? null : formatUsdAmount(micro));

/** How long the book that came with the note counts as fresh: live events refetch it sooner when an order changes. */
const BOOK_FRESH_MS = 30_000;

const BuyPanel = lazy(() => import("../components/BuyPanel"));
const BuySignedPanel = lazy(() => import("../components/BuySignedPanel"));
const OfferForm = lazy(() => import("../components/OfferForm"));
const OwnerActions = lazy(() => import("../../../lib/nfts/OwnerActions"));

/** /marketplace/nft/{id} and /nft/{id}: the note's terms, schedule, repayments, owners and price, with Buy. */
export function NftDetailsPage() {
  const { id = "" } = useParams();
  const queryClient = useQueryClient();
  const valid = /^[0-9]+$/.test(id);
  const nft = useQuery({ queryKey: marketplaceKeys.nft(id), queryFn: () => getNotePage(id, queryClient), enabled: valid, retry: (n, e) => !(isAxiosError(e) && e.response?.status === 404) && n < 2 });
  const ownership = useQuery({ queryKey: marketplaceKeys.ownership(id), queryFn: () => getOwnership(id), enabled: valid && nft.isSuccess });
  useRealtimeEvent("marketplace:update", (payload) => {
    // The page's one read brings the owners back with the note.
    if (String(payload.nftId ?? payload.tokenId) === id) void queryClient.invalidateQueries({ queryKey: marketplaceKeys.nft(id) });
  });
  const back = (
    <Link to="/marketplace" className="btn btn--ghost">
      Back to Marketplace
    </Link>
  );

  if (!valid || (nft.isError && isAxiosError(nft.error) && nft.error.response?.status === 404)) {
    return (
      <div className="container page">
        <PageHeader title={`Loan note #${id}`} actions={back} />
        <div className="empty">
          <h3>NFT not found</h3>
          <p>No note with this number exists on this chain.</p>
        </div>
      </div>
    );
  }
  return (
    <div className="container page stack">
      <PageHeader title={`Loan note #${id}`} subtitle="The note's token id is its loan number." actions={back} />
      {nft.isError ? (
        <div className="alert alert--danger" role="alert">
          <p>Failed to load the note. Please try again.</p>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void nft.refetch()}>
            Retry
          </button>
        </div>
      ) : !nft.data ? (
        <div className="center">
          <Spinner label="Loading note" />
        </div>
      ) : (
        <Details nft={nft.data} ownership={ownership.data} />
      )}
    </div>
  );
}

function Details({ nft, ownership }: { nft: NftDetails; ownership: Parameters<typeof OwnerHistory>[0]["ownership"] }) {
  const me = useSession((s) => s.user?.walletAddress?.toLowerCase() ?? null);
  const signedIn = useSession((s) => Boolean(s.user));
  const d = nft.metadata.loanDetails;
  const progress = Math.min(100, Number((parseUsd(nft.totalRepaid) * 10_000n) / (parseUsd(nft.totalDue) || 1n)) / 100);
  const mine = me !== null && nft.ownerAddress === me;
  // Read with the note in one request; live events read it again.
  const book = useOrderBook(nft.tokenId, !nft.burned, BOOK_FRESH_MS);
  // The cheapest signed listing by someone else (the book lists them cheapest first); the holder's own otherwise.
  // Only an open one is for sale: one on hold while the note is late is shown in the book, marked, not bought.
  const forSale = book.data?.listings.filter((o) => o.status === "open") ?? [];
  const signed = forSale.find((o) => o.signer.toLowerCase() !== me) ?? forSale[0] ?? null;
  const onChainListed = nft.marketplaceStatus === "listed";
  const listed = signed !== null || onChainListed;
  const bestOffer = book.data?.bestOffer ?? null;
  // A par price is shown as the note's own record prices it now, beside its two parts.
  const signedPriceText = signed ? wireUsd(orderPriceNow(signed, nft.servicing)) : null;
  return (
    <div className="mk-two">
      {/* First in the page: on a phone the buyer sees the price, what is owed, the yield and Buy before the long sections. */}
      <aside className="stack mk-two__side">
        <section className="card stack" aria-labelledby="price-title" data-testid="price-card">
          <h2 id="price-title">Price</h2>
          <ServicingBadge servicing={nft.servicing} testId="price-servicing" />
          {listed ? (
            <>
              {signed ? (
                <>
                  <div className="mk-card__price" data-testid="listing-price">
                    {usd(signedPriceText)}
                  </div>
                  <p className="small muted" data-testid="listing-par">
                    {signed.priceKind === "par" ? `${parBreakdown(payoffSplitOf(nft.servicing), signed.parBps)}; ` : "Fixed price, "}signed by <code>{shortAddress(signed.signer)}</code>
                  </p>
                </>
              ) : (
                <>
                  <div className="mk-card__price" data-testid="listing-price">
                    {usd(nft.listingPrice)}
                  </div>
                  <p className="small muted">
                    Listed {dateText(nft.listingDate)} by <code>{shortAddress(nft.sellerAddress)}</code>
                  </p>
                </>
              )}
            </>
          ) : (
            <p className="muted" data-testid="not-listed">
              {nft.burned
                ? nft.collateral?.state === "claimed"
                  ? "Settled by the claim of its NFT after a default: this note no longer exists."
                  : "Repaid in full: this note no longer exists."
                : "Not listed for sale."}
            </p>
          )}
          <NoteValue nft={signed ? { ...nft, listingPrice: signedPriceText } : nft} atPar={signed?.priceKind === "par" && signed.parBps === 10_000} />
          {bestOffer && (
            <p className="small" data-testid="best-offer">
              Best offer: <strong>{usd(wireUsd(orderPriceNow(bestOffer, nft.servicing)))}</strong>
              {bestOffer.priceKind === "par" ? ` (${bpsText(bestOffer.parBps)} of par)` : ""}
            </p>
          )}
          {listed && nft.isActive && !mine && !signedIn && <SignInToAct action="buy this note" />}
          {listed && nft.isActive && !mine && signedIn && (
            <WithWallet>
              <Suspense fallback={<Spinner />}>{signed ? <BuySignedPanel nft={nft} listing={signed} /> : <BuyPanel nft={nft} />}</Suspense>
            </WithWallet>
          )}
          {mine && bestOffer && (
            <p className="small">
              <Link to="/portfolio#offers">Accept an offer in your portfolio</Link>
            </p>
          )}
          {mine && <ListingLapsed nft={nft} />}
          {mine && (
            <WithWallet>
              <Suspense fallback={<Spinner />}>
                <OwnerActions nft={nft} />
              </Suspense>
            </WithWallet>
          )}
          <ExplorerLink kind="token" id={nft.tokenId}>
            See the note on the explorer
          </ExplorerLink>
        </section>
      </aside>
      <div className="stack mk-two__main">
        <section className="card stack" aria-labelledby="terms-title">
          <h2 id="terms-title">Terms</h2>
          <dl className="details">
            <div>
              <dt>Principal</dt>
              <dd>{usd(nft.terms.principal)}</dd>
            </div>
            <div>
              <dt>Interest rate</dt>
              <dd>{percentText(nft.terms.interestRate)}</dd>
            </div>
            <div>
              <dt>Term</dt>
              <dd>{nft.terms.termMonths} months</dd>
            </div>
            <div>
              <dt>Monthly payment</dt>
              <dd>{usd(nft.monthlyPayment)}</dd>
            </div>
            <div>
              <dt>{interestLine({ status: d.status, principal: nft.terms.principal, amount: nft.terms.principal, totalRepaid: nft.totalRepaid, totalInterest: nft.totalInterest }).label}</dt>
              <dd data-testid="note-interest">
                {interestLine({ status: d.status, principal: nft.terms.principal, amount: nft.terms.principal, totalRepaid: nft.totalRepaid, totalInterest: nft.totalInterest }).value}
              </dd>
            </div>
            <div>
              <dt>Purpose</dt>
              <dd>{purposeText(d.purpose)}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd data-testid="loan-status">{d.status}</dd>
            </div>
            <div>
              <dt>Payments</dt>
              <dd>
                <ServicingBadge servicing={nft.servicing} testId="note-servicing" />
              </dd>
            </div>
            <div>
              <dt>Started</dt>
              <dd>{dateText(new Date(nft.terms.startTime * 1000).toISOString())}</dd>
            </div>
            <div>
              <dt>Holder</dt>
              <dd>
                <ExplorerLink kind="address" id={nft.ownerAddress}>
                  <code>{shortAddress(nft.ownerAddress)}</code>
                </ExplorerLink>
                {nft.inVault ? " (in the vault)" : ""}
                {mine ? " — you" : ""}
              </dd>
            </div>
            <div>
              <dt>Borrower</dt>
              <dd>
                <ExplorerLink kind="address" id={nft.borrowerAddress}>
                  <code>{shortAddress(nft.borrowerAddress)}</code>
                </ExplorerLink>
              </dd>
            </div>
            <div>
              <dt>Minted</dt>
              <dd>
                <ExplorerLink kind="tx" id={nft.transactionHash}>
                  Origination transaction
                </ExplorerLink>
              </dd>
            </div>
          </dl>
          <div>
            <div className="row gap-sm small">
              <span>
                Repaid {usd(nft.totalRepaid)} of {usd(nft.totalDue)}
              </span>
              <span className="muted">({progress}%)</span>
            </div>
            <div className="mk-progress" role="progressbar" aria-label="Repayment progress" aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100}>
              <span style={{ width: `${progress}%` }} />
            </div>
          </div>
        </section>
        <NoteCollateral nft={nft} mine={mine} />
        <OrderBook book={book} me={me} servicing={nft.servicing} />
        {nft.isActive && !mine && me !== null && (
          <WithWallet>
            <Suspense fallback={<Spinner />}>
              <OfferForm nft={nft} />
            </Suspense>
          </WithWallet>
        )}
        <Fold id="schedule-title" title="Schedule" testId="fold-schedule">
          <ScheduleTable nft={nft} />
        </Fold>
        <Fold id="repayments-title" title="Repayment history">
          <RepaymentHistory nft={nft} />
        </Fold>
        <Fold id="owners-title" title="Owner history">
          <OwnerHistory ownership={ownership} claimed={nft.collateral?.state === "claimed"} />
        </Fold>
        <Fold id="chain-title" title="Every transaction on-chain" testId="fold-events" folded>
          <TokenHistory tokenId={nft.tokenId} />
        </Fold>
      </div>
    </div>
  );
}
