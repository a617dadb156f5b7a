import { useEffect, useId, useRef, type ReactNode } from "react";
import type { PayoffSplit } from "#domain/servicing";
import type { OrderTypedData } from "#domain/wire/order";
import { orderWords } from "./orderWords";

/**
 * What the wallet will be asked to sign, in words read from the typed data itself, before it is asked: Sign or
 * Cancel. Signing costs no gas; the sentence says so.
 */
export function SignReview({
  typed,
  split,
  busy,
  children,
  onSign,
  onCancel,
}: {
  typed: OrderTypedData;
  /** What would settle the note now (principal and interest, micro-dollars), to say what a percentage of par is in dollars. */
  split?: PayoffSplit | null;
  busy: boolean;
  children?: ReactNode;
  onSign: () => void;
  onCancel: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="review" role="group" aria-labelledby={titleId} data-testid="sign-review">
      <h3 id={titleId} ref={heading} tabIndex={-1}>
        What your wallet will sign
      </h3>
      <p data-testid="sign-words">{orderWords(typed.primaryType, typed.message, split)}</p>
      {children}
      <div className="row gap-sm">
        <button type="button" className="btn btn--primary" onClick={onSign} disabled={busy}>
          {busy ? "Signing…" : "Sign in wallet"}
        </button>
        <button type="button" className="btn btn--ghost" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </section>
  );
}
