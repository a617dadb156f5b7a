import { percentText, usd } from "../../../lib/format";
import { listedYield, parYieldWhy } from "../../../lib/nfts/noteYield";
import type { NftRecord } from "../../../lib/nfts/types";

/**
 * What the buyer gets for the price: the principal still owed and, at the listed price, the yield to maturity;
 * at 100% of par, why that yield is not the note's rate.
 */
export function NoteValue({ nft, atPar = false }: { nft: NftRecord; atPar?: boolean }) {
  const ytm = listedYield(nft);
  const why = ytm !== null && atPar ? parYieldWhy(ytm, nft.metadata.loanDetails.interestRate) : null;
  return (
    <>
      <dl className="mk-value" data-testid="note-value">
        <div>
          <dt>Outstanding principal</dt>
          <dd data-testid="outstanding-principal">{usd(nft.outstandingBalance)}</dd>
        </div>
        {ytm !== null && (
          <div>
            <dt>Yield to maturity</dt>
            <dd data-testid="yield-to-maturity" title="The annual return of the remaining installments at this price, compounded monthly">
              {percentText(ytm)}
            </dd>
          </div>
        )}
      </dl>
      {why && (
        <p className="small muted" data-testid="yield-why">
          {why}
        </p>
      )}
    </>
  );
}
