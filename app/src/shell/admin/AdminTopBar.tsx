import { useSession } from "../../lib/session";
import { LiveBadge } from "../../lib/realtime";
import { NotificationBell } from "../NotificationBell";

/** The admin area's own bar: live status, the bell, and who is signed in. */
export function AdminTopBar({ onMenu, menuOpen }: { onMenu: () => void; menuOpen: boolean }) {
  const user = useSession((s) => s.user);
  return (
    <div className="admin-bar">
      <button type="button" className="btn btn--ghost btn--sm admin__toggle" onClick={onMenu} aria-expanded={menuOpen} aria-controls="admin-sidebar">
        Admin menu
      </button>
      <LiveBadge />
      <div className="admin-bar__end">
        <NotificationBell />
        <div className="admin-bar__who" data-testid="admin-identity">
          <strong>{user?.email ?? user?.walletAddress ?? ""}</strong>
          <span className="muted small">Administrator</span>
        </div>
      </div>
    </div>
  );
}
