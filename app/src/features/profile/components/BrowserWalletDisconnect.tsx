import { useAccount, useDisconnect } from "wagmi";
import { shortAddress } from "../../../lib/format";

/** Ends this browser's wallet connection only: the verified wallet stays linked to the account. */
export default function BrowserWalletDisconnect() {
  const { address, isConnected } = useAccount();
  const { disconnect } = useDisconnect();
  if (!isConnected || !address) return null;
  return (
    <div className="row gap-sm" data-testid="browser-wallet">
      <span className="small muted">
        This browser's wallet is connected as <code>{shortAddress(address)}</code>.
      </span>
      <button type="button" className="btn btn--ghost btn--sm" onClick={() => disconnect()}>
        Disconnect browser wallet
      </button>
    </div>
  );
}
