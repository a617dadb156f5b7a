import type { WireServicing } from "#domain/wire/servicing";
import { amountPastDueText, SERVICING_TONE, servicingLabel } from "../lib/servicing/servicingWords";

/**
 * Where a loan stands against its schedule, one look on every page: Current, Late (N days past due), Delinquent
 * (N days), Defaulted or Repaid, with the amount past due beside it when there is one. Nothing for a loan without a
 * note (its servicing is null until the note is on the chain).
 */
export function ServicingBadge({ servicing, testId = "servicing" }: { servicing: WireServicing | null | undefined; testId?: string }) {
  if (!servicing) return null;
  const pastDue = amountPastDueText(servicing);
  return (
    <span className="servicing" data-testid={testId} data-servicing={servicing.status}>
      <span className={`badge badge--${SERVICING_TONE[servicing.status]}`}>{servicingLabel(servicing)}</span>
      {pastDue && (
        <span className="small" data-testid={`${testId}-past-due`}>
          {pastDue}
        </span>
      )}
    </span>
  );
}
