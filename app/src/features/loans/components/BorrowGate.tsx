import { Link } from "react-router";
import { useSession } from "../../../lib/session";
import { kycStatusOf } from "../../../lib/user";

/** True when the user may request a loan: approved KYC and a verified wallet (the server refuses otherwise). */
export function useCanBorrow() {
  const user = useSession((s) => s.user);
  const kyc = kycStatusOf(user);
  return { kyc, wallet: user?.walletAddress ?? null, ready: kyc === "approved" && Boolean(user?.walletAddress) };
}

/** Says plainly what is missing before a request can be sent, with the link that fixes it. */
export function BorrowGate() {
  const { kyc, wallet, ready } = useCanBorrow();
  if (ready) return null;
  return (
    <div className="alert alert--warning stack" role="alert" data-testid="borrow-gate">
      {kyc !== "approved" && (
        <p>
          <strong>KYC verification required.</strong>{" "}
          {kyc === "pending"
            ? "Your documents are under review (24-48 hours)."
            : kyc === "rejected"
              ? "Your verification was not approved: please resubmit."
              : "Verify your identity before requesting a loan."}{" "}
          <Link to="/kyc">Go to KYC verification</Link>
        </p>
      )}
      {!wallet && (
        <p>
          <strong>Verified wallet required.</strong> The principal is paid only to a wallet you verified by signing a message. <Link to="/profile">Link a wallet in your profile</Link>
        </p>
      )}
    </div>
  );
}
