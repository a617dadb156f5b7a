import { Link } from "react-router";
import { useSession } from "../lib/session";
import { kycStatusOf } from "../lib/user";
import { shortAddress } from "../lib/format";

/** What the signed-in user still needs before borrowing or investing: approved KYC and a verified wallet. */
export function Readiness() {
  const user = useSession((s) => s.user);
  const kyc = kycStatusOf(user);
  const wallet = user?.walletAddress;
  return (
    <ul className="checklist" aria-label="Requirements">
      <li className={kyc === "approved" ? "is-done" : ""}>
        <span className="checklist__mark" aria-hidden="true">{kyc === "approved" ? "✓" : "•"}</span>
        <div>
          <strong>Identity verified (KYC)</strong>
          <span className="muted small">{kyc === "approved" ? "Verified" : kyc === "pending" ? "Under review (24-48 hours)" : kyc === "rejected" ? "Not approved: please resubmit" : "Not started"}</span>
        </div>
        {kyc !== "approved" && <Link to="/kyc" className="btn btn--ghost btn--sm">Go to KYC</Link>}
      </li>
      <li className={wallet ? "is-done" : ""}>
        <span className="checklist__mark" aria-hidden="true">{wallet ? "✓" : "•"}</span>
        <div>
          <strong>Verified wallet</strong>
          <span className="muted small">{wallet ? <code>{shortAddress(wallet)}</code> : "Link a wallet by signing a message"}</span>
        </div>
        {!wallet && <Link to="/profile" className="btn btn--ghost btn--sm">Link wallet</Link>}
      </li>
    </ul>
  );
}
