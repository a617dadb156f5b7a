import { useState } from "react";
import { useLogout } from "../../../shell/useLogout";

/** Sign-out needs a confirmation step. */
export function AccountActions() {
  const [confirming, setConfirming] = useState(false);
  const logout = useLogout();
  return (
    <section className="card" aria-labelledby="account-actions-title">
      <h2 id="account-actions-title">Account Actions</h2>
      {confirming ? (
        <div className="alert alert--warning" role="alertdialog" aria-label="Confirm sign out">
          <div>
            <p>Are you sure you want to sign out?</p>
            <div className="row gap-sm">
              <button type="button" className="btn btn--danger btn--sm" onClick={() => logout("Successfully logged out!")}>
                Yes, Sign Out
              </button>
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          </div>
        </div>
      ) : (
        <button type="button" className="btn btn--danger-ghost" onClick={() => setConfirming(true)}>
          Sign Out
        </button>
      )}
    </section>
  );
}
