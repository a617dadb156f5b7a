import { checkedImageDataUri } from "#domain/nftImage";
import type { WirePledgedNft } from "#domain/wire/collateral";
import { usd } from "../format";
import { collectionText, COLLATERAL_STATE_TEXT, COLLATERAL_STATE_TONE, ltvText, pieceTitle } from "./collateralWords";
import "./pledged.css";

interface Props {
  nft: WirePledgedNft;
  /** A card's one line: the picture, the title, the state and the loan-to-value. */
  compact?: boolean;
  /** Hides the state (a page that says it in its own words, like the wizard's picker). */
  hideState?: boolean;
  /** False where the platform's appraisal is not known (the explorer reads only the chain). */
  valuation?: boolean;
}

/**
 * A pledged ERC-721 as every page shows it. The picture is drawn only as an `<img>` of a data URI that
 * passes checkedImageDataUri again here (docs/decisions.md "Images only as checked data URIs"): an `<img>` runs no
 * script, even of an SVG, and anything else gets a plain placeholder that names the collection and the id.
 */
export function PledgedNftView({ nft, compact = false, hideState = false, valuation = true }: Props) {
  const title = pieceTitle(nft);
  const ltv = ltvText(nft.loanToValueBps);
  const state = hideState ? null : (
    <span className={`badge badge--${COLLATERAL_STATE_TONE[nft.state]}`} data-testid="pledged-nft-state">
      {COLLATERAL_STATE_TEXT[nft.state]}
    </span>
  );
  return (
    <div className={`pledged${compact ? " pledged--compact" : ""}`} data-testid="pledged-nft" data-state={nft.state} aria-label={`Collateral: ${title}`} role="group">
      <PledgedNftImage nft={nft} title={title} />
      <div className="pledged__body">
        <strong className="pledged__title" data-testid="pledged-nft-title">
          {title}
        </strong>
        {compact ? (
          <span className="pledged__line small">
            {state}
            {ltv && (
              <span className="muted" data-testid="pledged-nft-ltv">
                {ltv}
              </span>
            )}
          </span>
        ) : (
          <>
            {state}
            <dl className="pledged__facts">
              <div>
                <dt>Collection</dt>
                <dd>
                  <code title={nft.collection}>{collectionText(nft)}</code>
                </dd>
              </div>
              <div>
                <dt>Token id</dt>
                <dd>#{nft.tokenId}</dd>
              </div>
              {valuation && (
                <>
                  <div>
                    <dt>Appraisal</dt>
                    <dd data-testid="pledged-nft-appraisal">{nft.appraisal ? usd(nft.appraisal) : "Not appraised yet"}</dd>
                  </div>
                  <div>
                    <dt>Loan-to-value</dt>
                    <dd data-testid="pledged-nft-ltv">{ltv ? ltv.replace(/^LTV /, "") : "—"}</dd>
                  </div>
                </>
              )}
            </dl>
          </>
        )}
      </div>
    </div>
  );
}

/** The picture alone: the checked data URI as an `<img>`, else the collection and the id in its place. */
export function PledgedNftImage({ nft, title }: { nft: Pick<WirePledgedNft, "image" | "collection" | "collectionName" | "tokenId">; title: string }) {
  const src = checkedImageDataUri(nft.image);
  if (src) return <img className="pledged__image" src={src} alt={title} data-testid="pledged-nft-image" loading="lazy" decoding="async" />;
  return (
    <div className="pledged__image pledged__image--none" role="img" aria-label={`${title}, no picture`} data-testid="pledged-nft-placeholder">
      <span>{nft.collectionName?.trim() || "NFT"}</span>
      <span>#{nft.tokenId}</span>
    </div>
  );
}
