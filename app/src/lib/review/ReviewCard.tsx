import { useEffect, useRef, type ReactNode } from "react";

export interface ReviewLine {
  label: string;
  value: ReactNode;
  testId?: string;
}

/**
 * What a money move will do, shown before anything is signed or sent: its lines, then Confirm or Cancel. Needs no
 * wallet, so a move the server sends with a key of its own (the treasury's) is reviewed with it too; ReviewStep adds
 * the paying wallet's balance for a move the user's wallet sends.
 */
export function ReviewCard({
  title,
  lines,
  children,
  confirmLabel,
  busyLabel,
  busy,
  confirmDisabled,
  onConfirm,
  onCancel,
}: {
  title: string;
  lines: ReviewLine[];
  children?: ReactNode;
  confirmLabel: string;
  /** What Confirm says while the confirmed move is under way (`busy`); both buttons hold meanwhile. */
  busyLabel?: string;
  busy?: boolean;
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="review" role="group" aria-labelledby="review-title" data-testid="review">
      <h3 id="review-title" ref={heading} tabIndex={-1}>
        {title}
      </h3>
      <dl className="review__lines">
        {lines.map((line) => (
          <div key={line.label}>
            <dt>{line.label}</dt>
            <dd data-testid={line.testId}>{line.value}</dd>
          </div>
        ))}
      </dl>
      {children}
      <div className="row gap-sm">
        <button type="button" className="btn btn--primary" onClick={onConfirm} disabled={busy || confirmDisabled}>
          {busy ? (busyLabel ?? confirmLabel) : confirmLabel}
        </button>
        <button type="button" className="btn btn--ghost" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </section>
  );
}
