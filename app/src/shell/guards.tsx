import { Navigate, Outlet, useLocation, type Location } from "react-router";
import { isAdmin, returnTo, sessionEndedHere, useSession, type ReturnState } from "../lib/session";

/**
 * The page a visitor was opening, with its query and anchor, for login to return to; none when the session just
 * ended on it (a sign-out or an expiry lands on the home page after login, as the spec's login does).
 */
const fromHere = (location: Location): ReturnState | undefined => (sessionEndedHere() ? undefined : { from: location.pathname + location.search + location.hash });

/** /login and /register: a signed-in user goes back to the page a guard sent them from, or to /admin or /dashboard. */
export function PublicOnly() {
  const { isAuthenticated, user } = useSession();
  const location = useLocation();
  if (isAuthenticated && user) return <Navigate to={returnTo(location.state, user)} replace />;
  return <Outlet />;
}

/** Regular-user pages: visitors go to /login, admins to /admin. */
export function RequireUser() {
  const { isAuthenticated, user } = useSession();
  const location = useLocation();
  if (!isAuthenticated || !user) return <Navigate to="/login" replace state={fromHere(location)} />;
  if (isAdmin(user)) return <Navigate to="/admin" replace />;
  return <Outlet />;
}

/** Pages for anyone signed in, admins included (the profile, which shows admins their own block). */
export function RequireSignedIn() {
  const { isAuthenticated, user } = useSession();
  const location = useLocation();
  if (!isAuthenticated || !user) return <Navigate to="/login" replace state={fromHere(location)} />;
  return <Outlet />;
}

/** Admin pages: visitors go to /login, non-admins to /dashboard. */
export function RequireAdmin() {
  const { isAuthenticated, user } = useSession();
  const location = useLocation();
  if (!isAuthenticated || !user) return <Navigate to="/login" replace state={fromHere(location)} />;
  if (!isAdmin(user)) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
