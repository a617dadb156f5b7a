import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useDismiss } from "../../lib/useDismiss";
import type { WireNotification } from "#domain/wire/notification";
import { useNotifications } from "./api/getNotifications";
import { useMarkNotificationRead } from "./api/markNotificationRead";
import { useMarkAllNotificationsRead } from "./api/markAllNotificationsRead";

/** The badge is capped at '9+'. */
export const unreadLabel = (count: number) => (count > 9 ? "9+" : String(count));

function when(iso: string) {
  const seconds = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

const ICONS: Record<string, string> = { loan_request: "📝", kyc_submission: "🪪", collateral: "🖼️", system_alert: "⚠️" };

/** The admin's bell: newest notifications, the unread count, Mark all read; an item opens what it is about. */
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
    if (n.link) navigate(n.link);
  };

  return (
    <div className="bell" ref={ref}>
      <button
        type="button"
        className="icon-btn bell__trigger"
        aria-label={unread ? `Notifications, ${unread} unread` : "Notifications"}
        aria-haspopup="true"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="notification-bell"
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path d="M6 16V11a6 6 0 1 1 12 0v5l2 2H4l2-2Zm4 4h4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {unread > 0 && <span className="bell__count" data-testid="notification-count">{unreadLabel(unread)}</span>}
      </button>
      {open && (
        <div className="bell__panel" role="dialog" aria-label="Notifications">
          <div className="bell__head">
            <strong>Notifications</strong>
            <button type="button" className="btn btn--ghost btn--sm" disabled={!unread || markAll.isPending} onClick={() => markAll.mutate()}>
              Mark all read
            </button>
          </div>
          {isLoading ? (
            <p className="muted small bell__empty">Loading notifications…</p>
          ) : isError ? (
            <p className="bell__empty small">
              Could not load notifications.{" "}
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => refetch()}>Retry</button>
            </p>
          ) : !data?.notifications.length ? (
            <p className="muted small bell__empty">No notifications yet</p>
          ) : (
            <ul className="bell__list">
              {data.notifications.map((n) => (
                <li key={n._id}>
                  <button type="button" className={`bell__item${n.isRead ? "" : " is-unread"}`} onClick={() => openItem(n)} data-testid="notification-item">
                    <span aria-hidden="true">{ICONS[n.type] ?? "🔔"}</span>
                    <span className="bell__text">
                      <span>{n.message}</span>
                      <span className="muted small">{when(n.createdAt)}</span>
                    </span>
                    {!n.isRead && <span className="bell__dot" aria-label="Unread" />}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
