import { lazy, Suspense, useState } from "react";
import { Link, NavLink } from "react-router";
import { isAdmin, useSession } from "../lib/session";
import { Logo } from "./Logo";
import { ThemeToggle } from "./ThemeToggle";
import { ADMIN_MENU, PUBLIC_MENU, USER_MENU } from "./nav";
import { UserMenu } from "./UserMenu";
import { MobileMenu } from "./MobileMenu";
import { useLogout } from "./useLogout";

// Lazy: the bell's notification schemas (zod) stay out of a visitor's first load, as the admin bar's do.
const NotificationBell = lazy(() => import("./NotificationBell").then((m) => ({ default: m.NotificationBell })));

export function TopBar() {
  const { isAuthenticated, user } = useSession();
  const [mobileOpen, setMobileOpen] = useState(false);
  const logout = useLogout();
  const signedIn = isAuthenticated && user;
  const menu = signedIn ? (isAdmin(user) ? ADMIN_MENU : USER_MENU) : PUBLIC_MENU;

  return (
    <header className="topbar">
      <div className="topbar__inner container">
        <Logo />
        {signedIn && (
          <nav className="topbar__nav" aria-label="Main">
            {menu.map((item) => (
              <NavLink key={item.to} to={item.to} end={item.end} className="nav-link">
                {item.label}
              </NavLink>
            ))}
          </nav>
        )}
        <div className="topbar__actions">
          <ThemeToggle />
          {signedIn ? (
            <>
              <span className="greeting hide-md-greeting" data-testid="greeting">
                Hi, <strong>{user.firstName || "User"}</strong>
              </span>
              {isAdmin(user) && (
                <span className="badge badge--admin" data-testid="admin-badge">
                  Admin
                </span>
              )}
              {user.isWalletUser && (
                <span className="badge badge--wallet" data-testid="wallet-badge">
                  Wallet
                </span>
              )}
              <Link to="/profile" className="btn btn--ghost btn--sm hide-sm hide-md">
                Profile
              </Link>
              <button type="button" className="btn btn--ghost btn--sm hide-sm" onClick={() => logout()}>
                Logout
              </button>
              {/* The admin area's own bar carries the admin's bell. */}
              {!isAdmin(user) && (
                <Suspense fallback={null}>
                  <NotificationBell />
                </Suspense>
              )}
              <UserMenu user={user} />
            </>
          ) : (
            <>
              <Link to="/login" className="btn btn--ghost btn--sm hide-sm">
                Login
              </Link>
              <Link to="/register" className="btn btn--primary btn--sm hide-sm">
                Sign Up Free
              </Link>
            </>
          )}
          <button
            type="button"
            className="icon-btn topbar__menu"
            aria-label={mobileOpen ? "Close menu" : "Open menu"}
            aria-expanded={mobileOpen}
            onClick={() => setMobileOpen((open) => !open)}
            data-testid="mobile-menu-button"
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      </div>
      {mobileOpen && <MobileMenu menu={menu} onClose={() => setMobileOpen(false)} />}
    </header>
  );
}
