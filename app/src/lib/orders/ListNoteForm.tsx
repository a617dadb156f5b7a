import { useState } from "react";
import { displayUsd, parseUsd, typedUsd, isUsd } from "#domain/money";
import { parPrice } from "#domain/orders";
import type { NftRecord } from "../nfts/types";
import { SignReview } from "./SignReview";
import { useOrderFlow } from "./useOrderFlow";
import { bpsText, percentToBps } from "./orderWords";

export const EXPIRY_CHOICES = [7, 30, 90, 180] as const;

/**
 * List a note, or list it again at a new price, by a signature: at a percentage of par (which stays right across
 * repayments) or at a fixed price (which a repayment ends). Shows what the percentage is in dollars today.
 */
export function ListNoteForm({ nft, disabled }: { nft: NftRecord; disabled: boolean }) {
  const outstanding = parseUsd(nft.outstandingBalance);
  const [priceKind, setPriceKind] = useState<"par" | "fixed">("par");
  const [percent, setPercent] = useState("100");
  const [price, setPrice] = useState(nft.outstandingBalance);
  const [days, setDays] = useState(30);
  const flow = useOrderFlow(() => `Note #${nft.tokenId} listed: your signature is in the order book`);
  const bps = percentToBps(percent);
  const fixed = typedUsd(price);
  const fieldError = priceKind === "par" ? (bps === null ? "Enter a percentage such as 99 or 98.5" : "") : !isUsd(fixed) || parseUsd(fixed) === 0n ? "Enter a price in dollars" : "";
  const id = `list-${nft.tokenId}`;

  if (flow.typed) {
    return (
      <>
        <SignReview typed={flow.typed} outstanding={outstanding} busy={flow.busy} onSign={() => void flow.sign()} onCancel={flow.cancel}>
          <p className="small muted">The first time you list, your wallet first asks for one transaction letting the marketplace move your notes when one sells.</p>
        </SignReview>
        {flow.error && <p className="field__error" role="alert">{flow.error}</p>}
      </>
    );
  }
  return (
    <form
      className="stack"
      data-testid={`list-form-${nft.tokenId}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (fieldError) return;
        void flow.prepare(priceKind === "par"
          ? { kind: "listing", tokenId: nft.tokenId, priceKind: "par", parBps: bps!, expiresInDays: days }
          : { kind: "listing", tokenId: nft.tokenId, priceKind: "fixed", price: fixed, expiresInDays: days });
      }}
    >
      <fieldset className="segmented" aria-label="Price as">
        <label><input type="radio" name={`${id}-kind`} checked={priceKind === "par"} onChange={() => setPriceKind("par")} /> % of outstanding</label>
        <label><input type="radio" name={`${id}-kind`} checked={priceKind === "fixed"} onChange={() => setPriceKind("fixed")} /> Fixed price</label>
      </fieldset>
      <div className="mk-actions">
        {priceKind === "par" ? (
          <div className="field">
            <label htmlFor={`${id}-percent`}>Percent of par</label>
            <input id={`${id}-percent`} inputMode="decimal" value={percent} onChange={(e) => setPercent(e.target.value)} aria-describedby={`${id}-today`} />
          </div>
        ) : (
          <div className="field">
            <label htmlFor={`${id}-price`}>Price ($)</label>
            <input id={`${id}-price`} inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-days`}>Valid for</label>
          <select id={`${id}-days`} value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {EXPIRY_CHOICES.map((d) => <option key={d} value={d}>{d} days</option>)}
          </select>
        </div>
        <button type="submit" className="btn btn--primary btn--sm" disabled={disabled || flow.busy || Boolean(fieldError)}>Review listing</button>
      </div>
      {priceKind === "par" && bps !== null && (
        <p className="small muted" id={`${id}-today`} data-testid={`list-today-${nft.tokenId}`}>
          {bpsText(bps)} of {displayUsd(outstanding)} outstanding is {displayUsd(parPrice(outstanding, BigInt(bps)))} today; the price follows the outstanding principal as the borrower repays.
        </p>
      )}
      {priceKind === "fixed" && <p className="small muted">A fixed price ends with the next repayment: list again after it.</p>}
      {fieldError && <p className="field__error small">{fieldError}</p>}
      {flow.error && <p className="field__error" role="alert">{flow.error}</p>}
      <p className="small muted">Listing is a signature: it costs no gas. The marketplace fee comes out of the price when the note sells.</p>
    </form>
  );
}
