import { useState } from "react";
import { useNotificationsPage } from "../../../lib/notifications/getNotifications";
import { useMarkNotificationRead } from "../../../lib/notifications/markNotificationRead";
import { useMarkAllNotificationsRead } from "../../../lib/notifications/markAllNotificationsRead";
import { NOTIFICATION_UI as T } from "../../../lib/notifications/texts";
import { NotificationItem } from "../components/NotificationItem";
import "../notifications.css";

/** Every notice of the signed-in user, newest first, a page at a time; new ones arrive by the socket's push. */
export function NotificationsPage() {
  const [page, setPage] = useState(1);
  const list = useNotificationsPage(page);
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const unread = list.data?.unreadCount ?? 0;
  const pages = Math.max(1, list.data?.pagination?.totalPages ?? 1);

  return (
    <div className="container page">
      <header className="page-header">
        <div>
          <h1>{T.title}</h1>
          <p className="muted">
            {T.intro} {list.data && <span data-testid="notifications-unread">{T.unreadSummary(unread)}</span>}
          </p>
        </div>
        <div className="page-header__actions">
          <button type="button" className="btn btn--ghost btn--sm" disabled={!unread || markAll.isPending} onClick={() => markAll.mutate()} data-testid="notifications-mark-all">
            {T.markAllRead}
          </button>
        </div>
      </header>

      {list.isPending ? (
        <p className="muted" role="status">
          {T.loading}
        </p>
      ) : list.isError ? (
        <div className="alert alert--danger" role="alert">
          {T.loadError}{" "}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void list.refetch()}>
            {T.retry}
          </button>
        </div>
      ) : !list.data.notifications.length ? (
        <div className="empty" data-testid="notifications-empty">
          <h3>{T.empty}</h3>
        </div>
      ) : (
        <>
          <ul className="notice-list" data-testid="notifications">
            {list.data.notifications.map((n) => (
              <NotificationItem key={n._id} notice={n} onRead={(id) => markRead.mutate(id)} marking={markRead.isPending && markRead.variables === n._id} />
            ))}
          </ul>
          {pages > 1 && (
            <nav className="notice-pager" aria-label={T.pagination}>
              <button type="button" className="btn btn--ghost btn--sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                {T.previous}
              </button>
              <span className="small muted">{T.pageOf(page, pages)}</span>
              <button type="button" className="btn btn--ghost btn--sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
                {T.next}
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
