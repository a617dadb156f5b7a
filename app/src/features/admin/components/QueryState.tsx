import type { ReactNode } from "react";
import { Spinner } from "../../../components/Spinner";

/** Loading, error (with Retry) and empty states, the same on every admin page. */
export function QueryState({
  loading,
  error,
  empty,
  errorText,
  emptyText,
  onRetry,
  children,
}: {
  loading: boolean;
  error: boolean;
  empty: boolean;
  errorText: string;
  emptyText: ReactNode;
  onRetry: () => void;
  children: ReactNode;
}) {
  if (loading)
    return (
      <div className="center admin-state">
        <Spinner label="Loading" />
      </div>
    );
  if (error) {
    return (
      <div className="alert alert--danger admin-state" role="alert">
        {errorText}{" "}
        <button type="button" className="btn btn--ghost btn--sm" onClick={onRetry}>
          Retry
        </button>
      </div>
    );
  }
  if (empty) return <div className="empty">{emptyText}</div>;
  return <>{children}</>;
}
