import { Link } from "react-router";

export interface QuickAction {
  to: string;
  title: string;
  text: string;
}

/** The cards of shortcuts on the user's and the admin's dashboards. */
export function QuickActionGrid({ actions }: { actions: readonly QuickAction[] }) {
  return (
    <div className="grid-3">
      {actions.map((a) => (
        <Link key={a.to} to={a.to} className="card quick-action">
          <strong>{a.title}</strong>
          <span className="muted small">{a.text}</span>
          <span className="quick-action__arrow" aria-hidden="true">
            →
          </span>
        </Link>
      ))}
    </div>
  );
}
