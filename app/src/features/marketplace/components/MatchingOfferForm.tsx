import { useState } from "react";
import { isUsd, parseUsd, typedUsd, displayUsd } from "#domain/money";
import { FundingNote } from "../../../lib/orders/FundingNote";
import { PlacedOrderNote } from "../../../lib/orders/PlacedOrderNote";
import { EXPIRY_CHOICES } from "../../../lib/orders/ListNoteForm";
import { SignReview } from "../../../lib/orders/SignReview";
import { useOrderFlow } from "../../../lib/orders/useOrderFlow";
import { percentToBps, secondsInMonths } from "../../../lib/orders/orderWords";
import { WalletBar } from "../../../lib/wallet/WalletBar";

/**
 * The least time to maturity the offer signs: one second, never 0, so a matured note (whose term left is 0) never
 * matches by accident; the form has no field for it.
 */
const MIN_TERM_LEFT_SECONDS = 1;

const optionalAmount = (text: string): string | undefined | null => {
  const value = typedUsd(text);
  if (value === "") return undefined;
  return isUsd(value) ? value : null;
};

/**
 * "Any note at 12%+ with at most 12 months left, at 97% of par, up to $50,000": one signed offer that any holder
 * of a matching note may accept, filling across notes until its budget is spent. The contract checks the ranges
 * against each note's on-chain terms at the fill.
 */
export default function MatchingOfferForm() {
  const [minRate, setMinRate] = useState("12");
  const [maxMonths, setMaxMonths] = useState("12");
  const [minOutstanding, setMinOutstanding] = useState("");
  const [maxOutstanding, setMaxOutstanding] = useState("");
  const [percent, setPercent] = useState("97");
  const [budget, setBudget] = useState("50000");
  const [days, setDays] = useState(30);
  const flow = useOrderFlow(() => "Offer on any matching note signed: holders of matching notes can accept it now");

  const rateBps = minRate.trim() === "" ? 0 : percentToBps(minRate);
  const months = maxMonths.trim() === "" ? undefined : /^\d{1,3}$/.test(maxMonths.trim()) && Number(maxMonths) > 0 ? Number(maxMonths) : null;
  const minOut = optionalAmount(minOutstanding);
  const maxOut = optionalAmount(maxOutstanding);
  const bps = percentToBps(percent);
  const budgetValue = optionalAmount(budget);
  const fieldError =
    rateBps === null
      ? "Enter the least rate as a percentage, such as 12"
      : months === null
        ? "Enter the most months left as a whole number"
        : minOut === null || maxOut === null
          ? "Enter outstanding amounts in dollars, or leave them empty"
          : minOut !== undefined && maxOut !== undefined && parseUsd(minOut) > parseUsd(maxOut)
            ? "The least outstanding is above the most"
            : bps === null
              ? "Enter the percentage of par, such as 97"
              : !budgetValue || parseUsd(budgetValue) === 0n
                ? "Enter the budget in dollars"
                : "";
  const budgetMicro = budgetValue ? parseUsd(budgetValue) : null;

  return (
    <section className="card stack" aria-labelledby="matching-title" data-testid="matching-offer-form">
      <h2 id="matching-title">Offer on any matching note</h2>
      <p className="small muted">
        One signature offers a percentage of par (the principal still owed plus the interest accrued and unpaid) for every current, not yet matured note in your ranges; each holder who accepts sells
        you their note, until your budget is spent.
      </p>
      <WalletBar />
      {flow.typed ? (
        <SignReview typed={flow.typed} busy={flow.busy} onSign={() => void flow.sign()} onCancel={flow.cancel}>
          <FundingNote most={budgetMicro} />
        </SignReview>
      ) : (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            if (fieldError) return;
            void flow.prepare({
              kind: "matchingOffer",
              priceKind: "par",
              parBps: bps!,
              budget: budgetValue!,
              expiresInDays: days,
              maxDaysPastDue: 0,
              ranges: {
                minTermLeft: MIN_TERM_LEFT_SECONDS,
                ...(rateBps ? { minRateBps: rateBps } : {}),
                ...(months ? { maxTermLeft: Number(secondsInMonths(months)) } : {}),
                ...(minOut ? { minOutstanding: minOut } : {}),
                ...(maxOut ? { maxOutstanding: maxOut } : {}),
              },
            });
          }}
        >
          <div className="mk-filters">
            <div className="field">
              <label htmlFor="mo-rate">Rate at least (%)</label>
              <input id="mo-rate" inputMode="decimal" value={minRate} onChange={(e) => setMinRate(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="mo-months">At most months left</label>
              <input id="mo-months" inputMode="numeric" value={maxMonths} onChange={(e) => setMaxMonths(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="mo-min">Outstanding from ($, optional)</label>
              <input id="mo-min" inputMode="decimal" value={minOutstanding} onChange={(e) => setMinOutstanding(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="mo-max">Outstanding up to ($, optional)</label>
              <input id="mo-max" inputMode="decimal" value={maxOutstanding} onChange={(e) => setMaxOutstanding(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="mo-percent">Percent of par</label>
              <input id="mo-percent" inputMode="decimal" value={percent} onChange={(e) => setPercent(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="mo-budget">Budget ($)</label>
              <input id="mo-budget" inputMode="decimal" value={budget} onChange={(e) => setBudget(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="mo-days">Valid for</label>
              <select id="mo-days" value={days} onChange={(e) => setDays(Number(e.target.value))}>
                {EXPIRY_CHOICES.map((d) => (
                  <option key={d} value={d}>
                    {d} days
                  </option>
                ))}
              </select>
            </div>
          </div>
          {fieldError ? (
            <p className="field__error small">{fieldError}</p>
          ) : (
            budgetMicro !== null && <p className="small muted">Up to {displayUsd(budgetMicro)} in all, across as many matching notes as holders accept.</p>
          )}
          <FundingNote most={budgetMicro} />
          <div>
            <button type="submit" className="btn btn--primary" disabled={flow.busy || Boolean(fieldError) || !flow.wallet.isConnected || flow.wallet.mismatch}>
              Review offer
            </button>
          </div>
        </form>
      )}
      {flow.placed && !flow.typed && <PlacedOrderNote order={flow.placed} />}
      {flow.error && (
        <p className="field__error" role="alert" data-testid="matching-error">
          {flow.error}
        </p>
      )}
    </section>
  );
}
