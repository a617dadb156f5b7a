import { lazy, useEffect, useState } from "react";
import toast from "react-hot-toast";
import { explorerLink, useRuntimeConfig } from "../../../lib/config";
import { serverMessage } from "../../../lib/errors";
import { shortAddress } from "../../../lib/format";
import { PROFILE_TOAST } from "../../../lib/toast";
import type { User } from "../../../lib/user";
import { detectInjectedWallet } from "../../../lib/wallet/detect";
import { WithWallet } from "../../../lib/wallet/WithWallet";
import { useUpdateProfile } from "../api/updateProfile";

const WalletLinker = lazy(() => import("./WalletLinker"));
const BrowserWalletDisconnect = lazy(() => import("./BrowserWalletDisconnect"));

export function WalletCard({ user }: { user: User }) {
  const config = useRuntimeConfig();
  const [confirming, setConfirming] = useState(false);
  const [hasExtension, setHasExtension] = useState<boolean | null>(null);
  const update = useUpdateProfile();
  const address = user.walletAddress || "";

  useEffect(() => {
    let live = true;
    void detectInjectedWallet().then((found) => live && setHasExtension(found));
    return () => {
      live = false;
    };
  }, []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address);
      toast.success("Wallet address copied to clipboard!", PROFILE_TOAST.success);
    } catch {
      window.prompt("Copy the wallet address", address);
    }
  };

  const disconnect = async () => {
    try {
      await update.mutateAsync({ walletAddress: "" });
      toast.success("Wallet unlinked from your account", PROFILE_TOAST.success);
      setConfirming(false);
    } catch (err) {
      toast.error(serverMessage(err, "Failed to unlink the wallet"), PROFILE_TOAST.error);
    }
  };

  const canConnect = hasExtension === true || config.data?.isLocalChain === true;

  return (
    <section className="card" aria-labelledby="wallet-card-title" data-testid="wallet-card">
      <div className="card__head">
        <h2 id="wallet-card-title">Wallet Connection</h2>
        {address ? (
          <span className="badge badge--success">
            <span className="dot" /> Connected
          </span>
        ) : (
          <span className="badge badge--neutral">Not connected</span>
        )}
      </div>
      {address ? (
        <div className="stack">
          <div className="wallet-address">
            <span className="muted small">Verified wallet</span>
            <code className="break" data-testid="linked-wallet" title={address}>
              {address}
            </code>
          </div>
          <div className="row gap-sm">
            <button type="button" className="btn btn--secondary btn--sm" onClick={() => void copy()}>
              Copy address
            </button>
            <a className="btn btn--ghost btn--sm" href={explorerLink(config.data, "address", address)} target={config.data?.explorerUrl ? "_blank" : undefined} rel="noreferrer">
              View on explorer
            </a>
            {!confirming && (
              <button type="button" className="btn btn--danger-ghost btn--sm" onClick={() => setConfirming(true)}>
                Unlink wallet
              </button>
            )}
          </div>
          <WithWallet fallback={<></>}>
            <BrowserWalletDisconnect />
          </WithWallet>
          {confirming && (
            <div className="alert alert--warning" role="alertdialog" aria-label="Confirm unlinking the wallet">
              <div>
                <p>
                  Unlink {shortAddress(address)} from your account? Loans are paid only to a verified wallet; you can link one again by signing. (To end only this browser's wallet connection, use
                  Disconnect browser wallet.)
                </p>
                <div className="row gap-sm">
                  <button type="button" className="btn btn--danger btn--sm" onClick={() => void disconnect()} disabled={update.isPending}>
                    {update.isPending ? "Unlinking..." : "Yes, unlink"}
                  </button>
                  <button type="button" className="btn btn--ghost btn--sm" onClick={() => setConfirming(false)}>
                    Cancel
                  </button>
                </div>
              </div>
            </div>
          )}
        </div>
      ) : (
        <div className="stack">
          <p className="muted">Link a wallet by signing a message with it. Loans are paid to, and notes are held by, your verified wallet.</p>
          {hasExtension === false && !config.data?.isLocalChain && (
            <div className="alert alert--warning" role="note">
              <p>Connecting a wallet needs a browser wallet extension such as MetaMask.</p>
            </div>
          )}
          {canConnect && (
            <WithWallet>
              <WalletLinker hint={typeof user.walletAddressHint === "string" ? user.walletAddressHint : undefined} />
            </WithWallet>
          )}
        </div>
      )}
    </section>
  );
}
