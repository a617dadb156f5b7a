import { Link } from "react-router";
import { percentText, purposeText, shortAddress, usd } from "../../../lib/format";
import type { NftRecord } from "../../../lib/nfts/types";
import { listedYield } from "../../../lib/nfts/noteYield";
import { parBreakdown } from "../../../lib/orders/parWords";
import { PledgedNftView } from "../../../lib/nfts/PledgedNftView";
import { ltvText, pieceTitle } from "../../../lib/nfts/collateralWords";
import { formatUsdAmount } from "#domain/money";
import { parPrice } from "#domain/orders";
import { payoffSplitOf } from "../../../lib/servicing/payoffSplitOf";
import { ServicingBadge } from "../../../components/ServicingBadge";

/**
 * A signed listing's price before an on-chain listing's; a par one as the dirty price of the note's own principal and
 * interest now, so the card's price, its parts and its yield agree.
 */
const priceOf = (nft: NftRecord) => {
  const signed = nft.signedListing;
  if (signed?.priceKind === "par") return formatUsdAmount(parPrice(payoffSplitOf(nft.servicing), BigInt(signed.parBps)));
  return signed?.priceNow ?? nft.listingPrice;
};
const offerText = (nft: NftRecord) => (nft.bestOffer ? `${usd(nft.bestOffer.priceNow)}${nft.bestOffer.kind === "matchingOffer" ? " (any matching note)" : ""}` : "None yet");

const yieldText = (nft: NftRecord) => {
  const ytm = listedYield({ ...nft, listingPrice: priceOf(nft) });
  return ytm === null ? "—" : percentText(ytm);
};

/** One listed note: price, terms and who sells it, with the spec's View Details link. */
export function NoteCard({ nft }: { nft: NftRecord }) {
  const d = nft.metadata.loanDetails;
  return (
    <article className="card mk-card" data-testid="note-card" aria-labelledby={`note-${nft.tokenId}`}>
      <div className="mk-card__head">
        <h3 id={`note-${nft.tokenId}`}>Note #{nft.tokenId}</h3>
        <span className="badge badge--success">{purposeText(d.purpose)}</span>
      </div>
      <ServicingBadge servicing={nft.servicing} testId="card-servicing" />
      {nft.collateral ? (
        <PledgedNftView nft={nft.collateral} compact />
      ) : (
        <p className="small muted" data-testid="card-unsecured">
          Unsecured
        </p>
      )}
      <div>
        <span className="small muted">Price</span>
        <div className="mk-card__price">{usd(priceOf(nft))}</div>
        {nft.signedListing?.priceKind === "par" && (
          <span className="small muted" data-testid="card-par">
            {parBreakdown(payoffSplitOf(nft.servicing), nft.signedListing.parBps)}
          </span>
        )}
      </div>
      <dl>
        <div>
          <dt>Amount</dt>
          <dd>{usd(d.amount)}</dd>
        </div>
        <div>
          <dt>Rate</dt>
          <dd>{percentText(d.interestRate)}</dd>
        </div>
        <div>
          <dt>Term</dt>
          <dd>{d.termMonths} months</dd>
        </div>
        <div>
          <dt>Repaid</dt>
          <dd>{usd(nft.totalRepaid)}</dd>
        </div>
        <div>
          <dt>Outstanding</dt>
          <dd data-testid="card-outstanding">{usd(nft.outstandingBalance)}</dd>
        </div>
        <div>
          <dt>Yield at price</dt>
          <dd data-testid="card-yield">{yieldText(nft)}</dd>
        </div>
        <div>
          <dt>Best offer</dt>
          <dd data-testid="card-best-offer">{offerText(nft)}</dd>
        </div>
      </dl>
      <p className="small muted">
        Seller <code>{shortAddress(nft.sellerAddress ?? nft.ownerAddress)}</code>
      </p>
      <Link to={`/marketplace/nft/${nft.tokenId}`} className="btn btn--primary btn--block" aria-label={`View Details of note #${nft.tokenId}`}>
        View Details
      </Link>
    </article>
  );
}

export function NoteTable({ nfts }: { nfts: NftRecord[] }) {
  return (
    <div className="table-wrap card">
      <table className="table table--cards" data-testid="note-table">
        <thead>
          <tr>
            <th>Note</th>
            <th>Purpose</th>
            <th>Amount</th>
            <th>Rate</th>
            <th>Term</th>
            <th>Price</th>
            <th>Best offer</th>
            <th>Outstanding</th>
            <th>Payments</th>
            <th>Yield</th>
            <th>Collateral</th>
            <th>Seller</th>
            <th>
              <span className="sr-only">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {nfts.map((nft) => (
            <tr key={nft.tokenId} data-testid="note-row">
              <td data-label="Note">#{nft.tokenId}</td>
              <td data-label="Purpose">{purposeText(nft.metadata.loanDetails.purpose)}</td>
              <td data-label="Amount">{usd(nft.metadata.loanDetails.amount)}</td>
              <td data-label="Rate">{percentText(nft.metadata.loanDetails.interestRate)}</td>
              <td data-label="Term">{nft.metadata.loanDetails.termMonths} mo</td>
              <td data-label="Price">
                <strong>{usd(priceOf(nft))}</strong>
              </td>
              <td data-label="Best offer">{offerText(nft)}</td>
              <td data-label="Outstanding">{usd(nft.outstandingBalance)}</td>
              <td data-label="Payments">
                <ServicingBadge servicing={nft.servicing} testId="row-servicing" />
              </td>
              <td data-label="Yield">{yieldText(nft)}</td>
              <td data-label="Collateral" data-testid="row-collateral">
                {nft.collateral ? `${pieceTitle(nft.collateral)}${ltvText(nft.collateral.loanToValueBps) ? ` · ${ltvText(nft.collateral.loanToValueBps)}` : ""}` : "Unsecured"}
              </td>
              <td data-label="Seller">
                <code>{shortAddress(nft.sellerAddress ?? nft.ownerAddress)}</code>
              </td>
              <td>
                <Link to={`/marketplace/nft/${nft.tokenId}`} aria-label={`View Details of note #${nft.tokenId}`}>
                  View Details
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
