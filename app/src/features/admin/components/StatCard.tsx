import type { ReactNode } from "react";

export function StatCard({ label, value, hint, testId }: { label: string; value: ReactNode; hint?: ReactNode; testId?: string }) {
  return (
    <div className="card stat" data-testid={testId}>
      <div className="stat__label">{label}</div>
      <div className="stat__value">{value}</div>
      {hint ? <div className="muted small">{hint}</div> : null}
    </div>
  );
}
