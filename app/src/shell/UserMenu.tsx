import { useRef, useState } from "react";
import { Link } from "react-router";
import type { User } from "../lib/user";
import { isAdmin } from "../lib/session";
import { useDismiss } from "../lib/useDismiss";
import { Avatar } from "../components/Avatar";
import { useLogout } from "./useLogout";
import { NOTIFICATION_UI } from "../lib/notifications/texts";

/** The account dropdown: who is signed in, Profile Settings and Sign out. */
export function UserMenu({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const logout = useLogout();

  useDismiss(ref, open, () => setOpen(false));

  return (
    <div className="user-menu" ref={ref}>
      <button type="button" className="user-menu__trigger" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="user-menu">
        <Avatar user={user} size={32} />
      </button>
      {open && (
        <div className="user-menu__panel" role="menu">
          <div className="user-menu__who">
            <strong>{[user.firstName, user.lastName].filter(Boolean).join(" ") || "User"}</strong>
            <span className="muted">{user.email ?? user.walletAddress}</span>
            <span className="muted small">{isAdmin(user) ? "Administrator" : user.isWalletUser ? "Wallet user" : "Member"}</span>
          </div>
          <Link role="menuitem" to="/notifications" onClick={() => setOpen(false)}>
            {NOTIFICATION_UI.title}
          </Link>
          <Link role="menuitem" to="/profile" onClick={() => setOpen(false)}>
            Profile Settings
          </Link>
          <button role="menuitem" type="button" onClick={() => logout()}>
            Sign out
          </button>
        </div>
      )}
    </div>
  );
}
