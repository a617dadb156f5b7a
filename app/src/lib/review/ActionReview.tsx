import { useEffect, useId, useRef, type ReactNode } from "react";

export interface ReviewLine {
  label: string;
  value: ReactNode;
  testId?: string;
}

/**
 * What an action will move and to whom, and what will be signed or sent, before it is: Confirm or Cancel. Every
 * action that spends money or gas is reviewed this way first, so nothing reaches the chain on a single click.
 */
export function ActionReview({ title, lines, sentence, confirmLabel, busyLabel, busy, testId, children, onConfirm, onCancel }: {
  title: string;
  lines: ReviewLine[];
  /** Who signs or sends what, in words. */
  sentence: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  testId?: string;
  children?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="review" role="group" aria-labelledby={titleId} data-testid={testId ?? "action-review"}>
      <h3 id={titleId} ref={heading} tabIndex={-1}>{title}</h3>
      <dl className="review__lines">
        {lines.map((line) => (
          <div key={line.label}>
            <dt>{line.label}</dt>
            <dd data-testid={line.testId}>{line.value}</dd>
          </div>
        ))}
      </dl>
      <p className="small">{sentence}</p>
      {children}
      <div className="row gap-sm">
        <button type="button" className="btn btn--primary" onClick={onConfirm} disabled={busy}>{busy ? busyLabel : confirmLabel}</button>
        <button type="button" className="btn btn--ghost" onClick={onCancel} disabled={busy}>Cancel</button>
      </div>
    </section>
  );
}
