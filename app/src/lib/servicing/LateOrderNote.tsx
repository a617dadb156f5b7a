import type { WireServicing } from "#domain/wire/servicing";
import { servicingLabel } from "./servicingWords";

/**
 * Said under an order form when the note is behind: the order signs "current notes only", so it waits in the book
 * until the borrower pays what is past due. Nothing while the note is current.
 */
export function LateOrderNote({ servicing, testId }: { servicing: WireServicing; testId?: string }) {
  if (servicing.status !== "late" && servicing.status !== "delinquent") return null;
  return (
    <p className="small alert alert--warning" role="status" data-testid={testId}>
      This note is {servicingLabel(servicing).toLowerCase()}. What you sign fills only while no installment is past due, so it waits until the borrower pays what is past due.
    </p>
  );
}
