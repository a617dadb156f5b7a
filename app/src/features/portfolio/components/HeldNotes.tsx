import { Link } from "react-router";
import { percentText, purposeText, shortAddress, usd } from "../../../lib/format";
import type { NftRecord } from "../../../lib/nfts/types";
import OwnerActions from "../../../lib/nfts/OwnerActions";
import { ListingLapsed } from "../../../lib/nfts/ListingLapsed";
import { PledgedNftView } from "../../../lib/nfts/PledgedNftView";
import ClaimCollateral from "../../../lib/nfts/ClaimCollateral";
import { COLLATERAL_STATE_TEXT, pieceTitle } from "../../../lib/nfts/collateralWords";
import { parseUsd } from "#domain/money";
import { ServicingBadge } from "../../../components/ServicingBadge";

const PERFORMANCE_BADGE: Record<string, string> = { excellent: "badge--success", good: "badge--success", average: "badge--warning", poor: "badge--danger" };

export function progressOf(nft: NftRecord): number {
  const due = parseUsd(nft.totalDue);
  return due === 0n ? 0 : Math.min(100, Number((parseUsd(nft.totalRepaid) * 10_000n) / due) / 100);
}

export function RepaymentBar({ nft }: { nft: NftRecord }) {
  const progress = progressOf(nft);
  return (
    <div>
      <div className="row gap-sm small">
        <span>
          Repaid {usd(nft.totalRepaid)} of {usd(nft.totalDue)}
        </span>
        <span className="muted">{progress}%</span>
      </div>
      <div className="mk-progress" role="progressbar" aria-label={`Repayment progress of note #${nft.tokenId}`} aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100}>
        <span style={{ width: `${progress}%` }} />
      </div>
    </div>
  );
}

/** A note the user holds: terms, where it is, how it performs, and (with the wallet loaded) list / reprice / cancel. */
export function HeldNoteCard({ nft, actions }: { nft: NftRecord; actions: boolean }) {
  const d = nft.metadata.loanDetails;
  return (
    <article className="card mk-card" data-testid="held-note" aria-labelledby={`held-${nft.tokenId}`}>
      <div className="mk-card__head">
        <h3 id={`held-${nft.tokenId}`}>
          <Link to={`/marketplace/nft/${nft.tokenId}`}>Note #{nft.tokenId}</Link>
        </h3>
        {nft.performance && <span className={`badge ${PERFORMANCE_BADGE[nft.performance]}`}>{nft.performance}</span>}
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
          <dt>Outstanding</dt>
          <dd>{usd(nft.outstandingBalance)}</dd>
        </div>
        <div>
          <dt>Where</dt>
          <dd data-testid="held-where">{nft.inVault ? "In the vault" : nft.marketplaceStatus === "listed" ? `Listed at ${usd(nft.listingPrice)}` : "In your wallet"}</dd>
        </div>
        <div>
          <dt>Purpose</dt>
          <dd>{purposeText(d.purpose)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{d.status}</dd>
        </div>
      </dl>
      <ServicingBadge servicing={nft.servicing} testId="held-servicing" />
      {nft.collateral && <PledgedNftView nft={nft.collateral} compact />}
      {d.status === "active" && <RepaymentBar nft={nft} />}
      <ListingLapsed nft={nft} />
      {/* A defaulted note whose NFT is still in escrow: its holder may take the piece (the note is then burned). */}
      {actions && d.status === "defaulted" && nft.collateral?.state === "locked" && <ClaimCollateral tokenId={nft.tokenId} nft={nft.collateral} role="holder" />}
      {actions && <OwnerActions nft={nft} bar={false} />}
    </article>
  );
}

/** A note of the user's own loan: who holds it and how far it is repaid. */
export function LoanNoteRow({ nft }: { nft: NftRecord }) {
  return (
    <tr data-testid="loan-note">
      <td data-label="Note">
        <Link to={`/marketplace/nft/${nft.tokenId}`}>#{nft.tokenId}</Link>
      </td>
      <td data-label="Principal">{usd(nft.metadata.loanDetails.amount)}</td>
      <td data-label="Status">
        {nft.metadata.loanDetails.status}
        <div>
          <ServicingBadge servicing={nft.servicing} testId="loan-note-servicing" />
        </div>
        {nft.collateral ? (
          <div className="small muted" data-testid="loan-note-collateral">
            {pieceTitle(nft.collateral)}: {COLLATERAL_STATE_TEXT[nft.collateral.state]}
          </div>
        ) : null}
      </td>
      <td data-label="Held by">
        {nft.marketplaceStatus === "repaid" ? "—" : <code>{shortAddress(nft.ownerAddress)}</code>}
        {nft.inVault ? " (vault)" : ""}
      </td>
      <td data-label="Repayment" style={{ minWidth: 180 }}>
        <RepaymentBar nft={nft} />
      </td>
      <td>{nft.loanId ? <Link to={`/loans/${nft.loanId}`}>Loan details</Link> : "—"}</td>
    </tr>
  );
}
