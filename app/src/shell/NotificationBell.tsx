import { useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useDismiss } from "../lib/useDismiss";
import type { WireNotification } from "#domain/wire/notification";
import { useNotifications } from "../lib/notifications/getNotifications";
import { useMarkNotificationRead } from "../lib/notifications/markNotificationRead";
import { useMarkAllNotificationsRead } from "../lib/notifications/markAllNotificationsRead";
import { NOTIFICATION_UI as T } from "../lib/notifications/texts";
import "./notification-bell.css";

/** The badge is capped at '9+'. */
export const unreadLabel = (count: number) => (count > 9 ? "9+" : String(count));

const ICONS: Record<string, string> = { loan_request: "📝", kyc_submission: "🪪", collateral: "🖼️", system_alert: "⚠️" };

/** Every signed-in user's bell: newest notifications, the unread count, Mark all read, and the way to all of them. */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const { data, isLoading, isError, refetch } = useNotifications();
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const unread = data?.unreadCount ?? 0;

  useDismiss(ref, open, () => setOpen(false));

  const openItem = (n: WireNotification) => {
    if (!n.isRead) markRead.mutate(n._id);
    setOpen(false);
    if (n.link) void navigate(n.link);
  };

  return (
    <div className="bell" ref={ref}>
      <button
        type="button"
        className="icon-btn bell__trigger"
        aria-label={T.bellLabel(unread)}
        aria-haspopup="true"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="notification-bell"
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path d="M6 16V11a6 6 0 1 1 12 0v5l2 2H4l2-2Zm4 4h4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {unread > 0 && (
          <span className="bell__count" data-testid="notification-count">
            {unreadLabel(unread)}
          </span>
        )}
      </button>
      {open && (
        <div className="bell__panel" role="dialog" aria-label={T.title}>
          <div className="bell__head">
            <strong>{T.title}</strong>
            <button type="button" className="btn btn--ghost btn--sm" disabled={!unread || markAll.isPending} onClick={() => markAll.mutate()}>
              {T.markAllRead}
            </button>
          </div>
          {isLoading ? (
            <p className="muted small bell__empty">{T.loading}</p>
          ) : isError ? (
            <p className="bell__empty small">
              {T.loadError}{" "}
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => void refetch()}>
                {T.retry}
              </button>
            </p>
          ) : !data?.notifications.length ? (
            <p className="muted small bell__empty">{T.empty}</p>
          ) : (
            <ul className="bell__list">
              {data.notifications.map((n) => {
                const unreadNow = !n.isRead && !n.done;
                return (
                  <li key={n._id}>
                    <button type="button" className={`bell__item${unreadNow ? " is-unread" : ""}${n.done ? " is-done" : ""}`} onClick={() => openItem(n)} data-testid="notification-item">
                      <span aria-hidden="true">{ICONS[n.type] ?? "🔔"}</span>
                      <span className="bell__text">
                        <span>{n.message}</span>
                        <span className="muted small">{T.when(n.createdAt)}</span>
                      </span>
                      {n.done ? <span className="bell__done">{T.done}</span> : unreadNow && <span className="bell__dot" aria-label={T.unread} />}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          <Link to="/notifications" className="bell__foot small" onClick={() => setOpen(false)} data-testid="notifications-see-all">
            {T.seeAll}
          </Link>
        </div>
      )}
    </div>
  );
}
