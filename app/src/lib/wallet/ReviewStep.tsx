import { useEffect, useRef, type ReactNode } from "react";
import { displayUsd } from "#domain/money";
import { Spinner } from "../../components/Spinner";
import { useTestDollarBalance } from "./useTestDollarBalance";

export interface ReviewLine {
  label: string;
  value: ReactNode;
  testId?: string;
}

/**
 * What a money move will do, shown before the wallet is asked anything: the lines of the move, the paying wallet's
 * test dollars read from the chain, and Confirm or Cancel. With `pays` it warns (and holds Confirm) when the wallet
 * cannot cover the amount. A move the server sends with a key of its own (the treasury's) names no `payer`: it has
 * `serverSends`, and no wallet line.
 */
export function ReviewStep({ title, lines, payer, serverSends, pays, busy, busyLabel, children, confirmLabel, onConfirm, onCancel }: {
  title: string;
  lines: ReviewLine[];
  /** The wallet the money comes from, whose test-dollar balance is shown. */
  payer?: string | undefined;
  /** The server signs and sends: no browser wallet is involved, so none is shown. */
  serverSends?: boolean;
  /** The confirmed move is under way: the buttons hold, Confirm says `busyLabel`. */
  busy?: boolean;
  busyLabel?: string;
  /** Micro-dollars leaving the payer's wallet, if any. */
  pays?: bigint | null;
  children?: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const balance = useTestDollarBalance(serverSends ? undefined : payer);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const short = pays != null && balance.data !== undefined && balance.data < pays;
  return (
    <section className="review" role="group" aria-labelledby="review-title" data-testid="review">
      <h3 id="review-title" ref={heading} tabIndex={-1}>{title}</h3>
      <dl className="review__lines">
        {lines.map((line) => (
          <div key={line.label}><dt>{line.label}</dt><dd data-testid={line.testId}>{line.value}</dd></div>
        ))}
        {!serverSends && (
          <div>
            <dt>Your wallet's test dollars</dt>
            <dd data-testid="review-balance">{balance.data !== undefined ? displayUsd(balance.data) : balance.isError ? "Unavailable" : <Spinner />}</dd>
          </div>
        )}
      </dl>
      {children}
      {short && <p className="field__error" role="alert" data-testid="review-short">Your wallet holds less than this amount: get test dollars first.</p>}
      <div className="row gap-sm">
        <button type="button" className="btn btn--primary" onClick={onConfirm} disabled={busy || short || (pays != null && balance.data === undefined && !balance.isError)}>{busy ? busyLabel ?? confirmLabel : confirmLabel}</button>
        <button type="button" className="btn btn--ghost" onClick={onCancel} disabled={busy}>Cancel</button>
      </div>
    </section>
  );
}
