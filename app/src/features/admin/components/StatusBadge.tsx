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

export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return <span className={`badge badge--${TONE[status] ?? "neutral"}`} data-testid="status-badge">{label ?? status}</span>;
}
