import { useEffect } from "react";
import { createPortal } from "react-dom";
import { Link, NavLink } from "react-router";
import { isAdmin, useSession } from "../lib/session";
import type { NavItem } from "./nav";
import { ThemeToggle } from "./ThemeToggle";
import { useLogout } from "./useLogout";

/**
 * Mirrors the top bar on small screens. It is rendered into <body>: inside the header, whose
 * backdrop-filter makes it the containing block of fixed elements, the drawer was squeezed into the 64 px bar.
 */
export function MobileMenu({ menu, onClose }: { menu: NavItem[]; onClose: () => void }) {
  const { isAuthenticated, user } = useSession();
  const logout = useLogout();

  useEffect(() => {
    const esc = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    document.addEventListener("keydown", esc);
    // The page behind does not scroll while the menu covers it.
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", esc);
      document.body.style.overflow = overflow;
    };
  }, [onClose]);

  return createPortal(
    <div className="drawer" role="dialog" aria-modal="true" aria-label="Menu" data-testid="mobile-menu">
      <button type="button" className="drawer__backdrop" aria-label="Close menu" onClick={onClose} />
      <div className="drawer__panel">
        <div className="drawer__head">
          {isAuthenticated && user ? (
            <div>
              <p className="greeting">
                Hi, <strong>{user.firstName || "User"}</strong>
              </p>
              <div className="row gap-sm">
                {isAdmin(user) && <span className="badge badge--admin">Admin</span>}
                {user.isWalletUser && <span className="badge badge--wallet">Wallet</span>}
              </div>
            </div>
          ) : (
            <p className="greeting">Welcome to LoanMint</p>
          )}
          <button type="button" className="icon-btn" aria-label="Close menu" onClick={onClose}>
            ✕
          </button>
        </div>
        <nav className="drawer__nav" aria-label="Mobile">
          {menu.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end} onClick={onClose} className="drawer__link">
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="drawer__foot">
          <ThemeToggle />
          {isAuthenticated && user ? (
            <>
              <Link to="/profile" className="btn btn--ghost btn--block" onClick={onClose}>
                Profile
              </Link>
              <button
                type="button"
                className="btn btn--secondary btn--block"
                onClick={() => {
                  onClose();
                  logout();
                }}
              >
                Logout
              </button>
            </>
          ) : (
            <>
              <Link to="/login" className="btn btn--ghost btn--block" onClick={onClose}>
                Login
              </Link>
              <Link to="/register" className="btn btn--primary btn--block" onClick={onClose}>
                Sign Up Free
              </Link>
            </>
          )}
        </div>
      </div>
    </div>,
    document.body,
  );
}
