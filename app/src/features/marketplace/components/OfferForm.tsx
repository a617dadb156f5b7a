import { useState } from "react";
import { displayUsd, formatUsdAmount, isUsd, parseUsd, typedUsd } from "#domain/money";
import { FundingNote } from "../../../lib/orders/FundingNote";
import { PlacedOrderNote } from "../../../lib/orders/PlacedOrderNote";
import { EXPIRY_CHOICES } from "../../../lib/orders/ListNoteForm";
import { SignReview } from "../../../lib/orders/SignReview";
import { useOrderFlow } from "../../../lib/orders/useOrderFlow";
import { parBreakdown, PAR_MEANS } from "../../../lib/orders/parWords";
import { payoffSplitOf } from "../../../lib/servicing/payoffSplitOf";
import { LateOrderNote } from "../../../lib/servicing/LateOrderNote";
import { percentToBps } from "../../../lib/orders/orderWords";
import { WalletBar } from "../../../lib/wallet/WalletBar";
import type { NftDetails } from "../api/getNft";

const amountOf = (text: string) => {
  const value = typedUsd(text);
  return isUsd(value) && parseUsd(value) > 0n ? value : null;
};

/**
 * Make an offer on this note by a signature: a percentage of par with a dollar cap (it follows repayments and the
 * interest as it accrues), or a fixed price (a repayment ends it). Shows what the wallet holds and allows against the
 * most the offer can pay. It signs "current notes only" (maxDaysPastDue 0), as every order the app makes.
 */
export default function OfferForm({ nft }: { nft: NftDetails }) {
  const split = payoffSplitOf(nft.servicing);
  const [priceKind, setPriceKind] = useState<"par" | "fixed">("par");
  const [percent, setPercent] = useState("97");
  // The cap starts at 100% of par today: par includes the interest accrued, so the principal alone would cap too low.
  const [cap, setCap] = useState(formatUsdAmount(split.principal + split.interest));
  const [price, setPrice] = useState("");
  const [days, setDays] = useState(30);
  const flow = useOrderFlow((o) => `Offer on note #${nft.tokenId} signed: ${o.priceNow ? displayUsd(parseUsd(o.priceNow)) : "it is"} in the order book`);
  const bps = percentToBps(percent);
  const capValue = amountOf(cap);
  const fixed = amountOf(price);
  const fieldError =
    priceKind === "par" ? (bps === null ? "Enter a percentage such as 97 or 98.5" : capValue === null ? "Enter the most you pay in dollars" : "") : fixed === null ? "Enter a price in dollars" : "";
  // What the allowance must cover: the cap of a par offer (its price can be no more), a fixed price itself.
  const allowanceNeeded = priceKind === "par" ? (capValue === null ? null : parseUsd(capValue)) : fixed === null ? null : parseUsd(fixed);

  return (
    <section className="card stack" aria-labelledby="offer-title" data-testid="offer-form">
      <h2 id="offer-title">Make an offer</h2>
      <WalletBar />
      {flow.typed ? (
        <SignReview typed={flow.typed} split={split} busy={flow.busy} onSign={() => void flow.sign()} onCancel={flow.cancel}>
          <FundingNote most={allowanceNeeded} />
        </SignReview>
      ) : (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            if (fieldError) return;
            void flow.prepare(
              priceKind === "par"
                ? { kind: "offer", tokenId: nft.tokenId, priceKind: "par", parBps: bps!, cap: capValue!, expiresInDays: days, maxDaysPastDue: 0 }
                : { kind: "offer", tokenId: nft.tokenId, priceKind: "fixed", price: fixed!, expiresInDays: days, maxDaysPastDue: 0 },
            );
          }}
        >
          <fieldset className="segmented" aria-label="Offer as">
            <label>
              <input type="radio" name="offer-kind" checked={priceKind === "par"} onChange={() => setPriceKind("par")} /> % of par
            </label>
            <label>
              <input type="radio" name="offer-kind" checked={priceKind === "fixed"} onChange={() => setPriceKind("fixed")} /> Fixed price
            </label>
          </fieldset>
          <div className="mk-actions">
            {priceKind === "par" ? (
              <>
                <div className="field">
                  <label htmlFor="offer-percent">Percent of par</label>
                  <input id="offer-percent" inputMode="decimal" value={percent} onChange={(e) => setPercent(e.target.value)} />
                </div>
                <div className="field">
                  <label htmlFor="offer-cap">At most ($)</label>
                  <input id="offer-cap" inputMode="decimal" value={cap} onChange={(e) => setCap(e.target.value)} />
                </div>
              </>
            ) : (
              <div className="field">
                <label htmlFor="offer-price">Price ($)</label>
                <input id="offer-price" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
              </div>
            )}
            <div className="field">
              <label htmlFor="offer-days">Valid for</label>
              <select id="offer-days" value={days} onChange={(e) => setDays(Number(e.target.value))}>
                {EXPIRY_CHOICES.map((d) => (
                  <option key={d} value={d}>
                    {d} days
                  </option>
                ))}
              </select>
            </div>
          </div>
          {priceKind === "par" && bps !== null && (
            <p className="small muted" data-testid="offer-today">
              Today {parBreakdown(split, bps)}
              {capValue ? `; you pay at most ${displayUsd(parseUsd(capValue))}` : ""}. Here {PAR_MEANS}.
            </p>
          )}
          <LateOrderNote servicing={nft.servicing} testId="offer-late" />
          {fieldError && <p className="field__error small">{fieldError}</p>}
          <FundingNote most={allowanceNeeded} />
          <div>
            <button type="submit" className="btn btn--primary" disabled={flow.busy || Boolean(fieldError) || !flow.wallet.isConnected || flow.wallet.mismatch}>
              Review offer
            </button>
          </div>
          <p className="small muted">An offer is a signature: it costs no gas, and the money stays in your wallet until the holder accepts.</p>
        </form>
      )}
      {flow.placed && !flow.typed && <PlacedOrderNote order={flow.placed} />}
      {flow.error && (
        <p className="field__error" role="alert" data-testid="offer-error">
          {flow.error}
        </p>
      )}
    </section>
  );
}
