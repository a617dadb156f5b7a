import type { ReactNode } from "react";

/**
 * The buy panels' last step: the review while the buyer reviews, else the Buy button; then the error and how the
 * wallet pays. `price` is the amount as shown.
 */
export function BuyAction(props: { reviewing: boolean; review: ReactNode; busy: boolean; disabled: boolean; price: string; onReview: () => void; error: string | null }) {
  return (
    <>
      {props.reviewing ? (
        props.review
      ) : (
        <button type="button" className="btn btn--primary btn--lg" onClick={props.onReview} disabled={props.disabled}>
          {props.busy ? "Buying…" : `Buy for ${props.price}`}
        </button>
      )}
      {props.error && (
        <p className="field__error" role="alert" data-testid="buy-error">
          {props.error}
        </p>
      )}
      <p className="small muted">One permit signature, then one transaction from your verified wallet. No separate approval.</p>
    </>
  );
}
