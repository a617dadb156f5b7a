import { Link } from "react-router";
import type { WireNotification } from "#domain/wire/notification";
import { NOTIFICATION_UI as T } from "../../../lib/notifications/texts";

/**
 * One notice: its state (unread, or done when what it is about has settled), Mark read, and a link to the loan or
 * note it is about; following the link reads it, as the bell does.
 */
export function NotificationItem({ notice, onRead, marking }: { notice: WireNotification; onRead: (id: string) => void; marking: boolean }) {
  const unread = !notice.isRead && !notice.done;
  const internal = notice.link?.startsWith("/") ? notice.link : null;
  return (
    <li className={`notice${unread ? " is-unread" : ""}${notice.done ? " is-done" : ""}`} data-testid="notice" data-state={notice.done ? "done" : unread ? "unread" : "read"}>
      <div className="notice__body">
        <p className="notice__head">
          <strong>{notice.title}</strong>
          {unread && <span className="badge badge--warning">{T.unread}</span>}
          {notice.done && (
            <span className="badge badge--success" title={T.doneHint}>
              {T.done}
            </span>
          )}
        </p>
        <p>{notice.message}</p>
        <p className="small muted">
          <time dateTime={notice.createdAt} title={new Date(notice.createdAt).toLocaleString()}>
            {T.when(notice.createdAt)}
          </time>
        </p>
      </div>
      <div className="notice__actions">
        {internal && (
          <Link className="btn btn--ghost btn--sm" to={internal} onClick={() => !notice.isRead && onRead(notice._id)} data-testid="notice-open">
            {T.open}
          </Link>
        )}
        {!notice.isRead && (
          <button type="button" className="btn btn--ghost btn--sm" disabled={marking} onClick={() => onRead(notice._id)} data-testid="notice-mark-read">
            {T.markRead}
          </button>
        )}
      </div>
    </li>
  );
}
