import { Navigate, Outlet, useLocation } from "react-router";
import { homeFor, isAdmin, useSession } from "../lib/session";

/** /login and /register: a signed-in user goes to /admin or /dashboard. */
export function PublicOnly() {
  const { isAuthenticated, user } = useSession();
  if (isAuthenticated && user) return <Navigate to={homeFor(user)} replace />;
  return <Outlet />;
}

/** Regular-user pages: visitors go to /login, admins to /admin (spec 01 §4). */
export function RequireUser() {
  const { isAuthenticated, user } = useSession();
  const location = useLocation();
  if (!isAuthenticated || !user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (isAdmin(user)) return <Navigate to="/admin" replace />;
  return <Outlet />;
}

/** Pages for anyone signed in, admins included (the profile, which shows admins their own block). */
export function RequireSignedIn() {
  const { isAuthenticated, user } = useSession();
  const location = useLocation();
  if (!isAuthenticated || !user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** Admin pages: visitors go to /login, non-admins to /dashboard (spec 01 §4). */
export function RequireAdmin() {
  const { isAuthenticated, user } = useSession();
  if (!isAuthenticated || !user) return <Navigate to="/login" replace />;
  if (!isAdmin(user)) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
