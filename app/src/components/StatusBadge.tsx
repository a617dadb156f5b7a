/** A status's colour, loans' and notes' and KYC's alike: one word reads the same on every page (docs/decisions.md). */
const TONE: Record<string, string> = {
  pending: "warning",
  approved: "success",
  active: "success",
  funded: "success",
  repaying: "success",
  completed: "neutral",
  rejected: "danger",
  defaulted: "danger",
  minting: "warning",
  minted: "success",
  failed: "danger",
  listed: "success",
  listing: "warning",
  unlisted: "neutral",
  burned: "neutral",
  none: "neutral",
};

export function StatusBadge({ status, label, testId = "status-badge" }: { status: string; label?: string; testId?: string }) {
  return (
    <span className={`badge badge--${TONE[status] ?? "neutral"}`} data-testid={testId}>
      {label ?? status}
    </span>
  );
}
