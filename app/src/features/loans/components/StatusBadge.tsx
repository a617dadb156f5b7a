import type { LoanStatus } from "#domain/statuses";

const TONE: Record<LoanStatus, string> = {
  pending: "badge--warning",
  approved: "badge--neutral",
  active: "badge--success",
  completed: "badge--success",
  rejected: "badge--danger",
  defaulted: "badge--danger",
};

export function StatusBadge({ status }: { status: LoanStatus }) {
  return <span className={`badge ${TONE[status]}`} data-testid="loan-status">{status.charAt(0).toUpperCase() + status.slice(1)}</span>;
}
