import { useConnectModal } from "@rainbow-me/rainbowkit";
import { useAccount } from "wagmi";
import { Link } from "react-router";
import { shortAddress } from "../format";
import { useSession } from "../session";
import { DevWalletPicker } from "./DevWalletPicker";
import { WalletMismatch } from "./WalletMismatch";

/** Which wallet will sign: connect it, or see that it is not the verified one. */
export function WalletBar() {
  const { address, isConnected } = useAccount();
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const verified = useSession((s) => s.user?.walletAddress ?? null);
  if (!verified) {
    return (
      <p className="alert alert--warning small" role="status">
        You need a verified wallet to buy, list or move notes. <Link to="/profile">Link a wallet</Link>
      </p>
    );
  }
  if (!isConnected || !address) {
    return (
      <div className="stack" data-testid="wallet-bar">
        <DevWalletPicker />
        <div>
          <button type="button" className="btn btn--secondary" onClick={() => openConnectModal?.()} disabled={connectModalOpen}>
            {connectModalOpen ? "Connecting Wallet..." : "Connect Wallet"}
          </button>{" "}
          <span className="small muted">
            to sign with your verified wallet <code>{shortAddress(verified)}</code>
          </span>
        </div>
      </div>
    );
  }
  if (address.toLowerCase() !== verified.toLowerCase()) return <WalletMismatch address={address} verified={verified} />;
  return (
    <div className="address-badge" data-testid="wallet-bar">
      <span className="dot" aria-hidden="true" /> Signing as <code>{shortAddress(address)}</code>
    </div>
  );
}
