import { useState } from "react";
import { formatUsdAmount, parseUsd, typedUsd, isUsd } from "#domain/money";
import type { NftRecord } from "../nfts/types";
import { payoffSplitOf } from "../servicing/payoffSplitOf";
import { LateOrderNote } from "../servicing/LateOrderNote";
import { parBreakdown, PAR_MEANS } from "./parWords";
import { SignReview } from "./SignReview";
import { useOrderFlow } from "./useOrderFlow";
import { percentToBps } from "./orderWords";

export const EXPIRY_CHOICES = [7, 30, 90, 180] as const;

/**
 * List a note, or list it again at a new price, by a signature: at a percentage of par (which stays right across
 * repayments and as interest accrues) or at a fixed price (which a repayment ends). Shows what the percentage is in
 * dollars today, principal and interest. It signs "current notes only" (maxDaysPastDue 0): a late note is not sold.
 */
export function ListNoteForm({ nft, disabled }: { nft: NftRecord; disabled: boolean }) {
  const split = payoffSplitOf(nft.servicing);
  const [priceKind, setPriceKind] = useState<"par" | "fixed">("par");
  const [percent, setPercent] = useState("100");
  const [price, setPrice] = useState(formatUsdAmount(split.principal + split.interest));
  const [days, setDays] = useState(30);
  const flow = useOrderFlow(() => `Note #${nft.tokenId} listed: your signature is in the order book`);
  const bps = percentToBps(percent);
  const fixed = typedUsd(price);
  const fieldError = priceKind === "par" ? (bps === null ? "Enter a percentage such as 99 or 98.5" : "") : !isUsd(fixed) || parseUsd(fixed) === 0n ? "Enter a price in dollars" : "";
  const id = `list-${nft.tokenId}`;

  if (flow.typed) {
    return (
      <>
        <SignReview typed={flow.typed} split={split} busy={flow.busy} onSign={() => void flow.sign()} onCancel={flow.cancel}>
          <p className="small muted">The first time you list, your wallet first asks for one transaction letting the marketplace move your notes when one sells.</p>
        </SignReview>
        {flow.error && (
          <p className="field__error" role="alert">
            {flow.error}
          </p>
        )}
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
        void flow.prepare(
          priceKind === "par"
            ? { kind: "listing", tokenId: nft.tokenId, priceKind: "par", parBps: bps!, expiresInDays: days, maxDaysPastDue: 0 }
            : { kind: "listing", tokenId: nft.tokenId, priceKind: "fixed", price: fixed, expiresInDays: days, maxDaysPastDue: 0 },
        );
      }}
    >
      <fieldset className="segmented" aria-label="Price as">
        <label>
          <input type="radio" name={`${id}-kind`} checked={priceKind === "par"} onChange={() => setPriceKind("par")} /> % of par
        </label>
        <label>
          <input type="radio" name={`${id}-kind`} checked={priceKind === "fixed"} onChange={() => setPriceKind("fixed")} /> Fixed price
        </label>
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
            {EXPIRY_CHOICES.map((d) => (
              <option key={d} value={d}>
                {d} days
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn--primary btn--sm" disabled={disabled || flow.busy || Boolean(fieldError)}>
          Review listing
        </button>
      </div>
      {priceKind === "par" && bps !== null && (
        <p className="small muted" id={`${id}-today`} data-testid={`list-today-${nft.tokenId}`}>
          Today {parBreakdown(split, bps)}. Here {PAR_MEANS}: the price follows the principal as the borrower repays and the interest as it accrues.
        </p>
      )}
      <LateOrderNote servicing={nft.servicing} testId={`list-late-${nft.tokenId}`} />
      {priceKind === "fixed" && <p className="small muted">A fixed price ends with the next repayment: list again after it.</p>}
      {fieldError && <p className="field__error small">{fieldError}</p>}
      {flow.error && (
        <p className="field__error" role="alert">
          {flow.error}
        </p>
      )}
      <p className="small muted">Listing is a signature: it costs no gas. The marketplace fee comes out of the price when the note sells.</p>
    </form>
  );
}
