import { Link, useLocation } from "react-router";

/** What a signed-out visitor of a public page sees where an action needs an account: a way back here once signed in. */
export function SignInToAct({ action }: { action: string }) {
  const location = useLocation();
  const from = location.pathname + location.search + location.hash;
  return (
    <p className="stack" data-testid="sign-in-to-act">
      <Link className="btn btn--primary" to="/login" state={{ from }}>
        Sign in to {action}
      </Link>
      <span className="small muted">
        New here?{" "}
        <Link to="/register" state={{ from }}>
          Create an account
        </Link>
        ; buying needs approved KYC and a verified wallet.
      </span>
    </p>
  );
}
