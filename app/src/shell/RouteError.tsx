import { Link, useRouteError } from "react-router";

/** A lazy chunk that fails to load (a new deploy, a dropped connection) gets a way back. */
export function RouteError() {
  const error = useRouteError() as Error | undefined;
  return (
    <div className="container page narrow center-text">
      <h1>Something went wrong</h1>
      <p className="muted">{error?.message ?? "This page could not be loaded."}</p>
      <div className="row gap-sm center">
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          Reload
        </button>
        <Link to="/" className="btn btn--ghost">
          Home
        </Link>
      </div>
    </div>
  );
}
