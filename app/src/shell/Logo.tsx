import { Link } from "react-router";
import { useSession, homeFor } from "../lib/session";

/** The logo leads admins to /admin, other signed-in users to /dashboard, visitors to /. */
export function Logo() {
  const { isAuthenticated, user } = useSession();
  const to = isAuthenticated && user ? homeFor(user) : "/";
  return (
    <Link to={to} className="logo" data-testid="logo-link">
      <span className="logo-mark" aria-hidden="true">
        M
      </span>
      <span className="logo-text">
        Loan<strong>Mint</strong>
      </span>
    </Link>
  );
}
