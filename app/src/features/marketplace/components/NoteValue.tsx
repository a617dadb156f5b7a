import { percentText, usd } from "../../../lib/format";
import { listedYield } from "../../../lib/nfts/noteYield";
import { useChainNow } from "../../../lib/chainClock";
import type { NftRecord } from "../../../lib/nfts/types";

/** What the buyer gets for the price: the principal still owed and, at the listed price, the yield to maturity. */
export function NoteValue({ nft }: { nft: NftRecord }) {
  const now = useChainNow();
  const ytm = listedYield(nft, now);
  return (
    <dl className="mk-value" data-testid="note-value">
      <div><dt>Outstanding principal</dt><dd data-testid="outstanding-principal">{usd(nft.outstandingBalance)}</dd></div>
      {ytm !== null && <div><dt>Yield to maturity</dt><dd data-testid="yield-to-maturity" title="The annual return of the remaining installments at this price, compounded monthly">{percentText(ytm)}</dd></div>}
    </dl>
  );
}
