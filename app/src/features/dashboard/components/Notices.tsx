import { Link } from "react-router";
import { useNotices } from "../api/getNotices";

/** The latest three notices; the socket layer already toasts new ones, this list is refetched. */
export function Notices() {
  const notices = useNotices();
  if (notices.isPending)
    return (
      <p className="muted small" role="status">
        Loading notices…
      </p>
    );
  if (notices.isError)
    return (
      <p className="field__error small" role="alert">
        Could not load notices.{" "}
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => void notices.refetch()}>
          Retry
        </button>
      </p>
    );
  if (!notices.data.length)
    return (
      <p className="muted small" data-testid="notices-empty">
        No notices yet.
      </p>
    );
  return (
    <ul className="stack" data-testid="notices" style={{ listStyle: "none", padding: 0, margin: 0 }}>
      {notices.data.map((n) => (
        <li key={n._id} className={`alert ${n.read || n.done ? "" : "alert--info"}`}>
          <div>
            <p>
              <strong>{n.title}</strong> <span className="small muted">{new Date(n.createdAt).toLocaleString()}</span>
            </p>
            <p>{n.link && n.link.startsWith("/") ? <Link to={n.link}>{n.message}</Link> : n.message}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
