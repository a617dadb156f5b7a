import { lazy, useEffect, useState } from "react";
import { detectInjectedWallet, WALLET_DOWNLOAD_URL } from "../../../lib/wallet/detect";
import { WithWallet } from "../../../lib/wallet/WithWallet";
import { useRuntimeConfig } from "../../../lib/config";

const WalletSignIn = lazy(() => import("./WalletSignIn"));

/** The wallet login block (spec 01 §2): the notice without an extension, else the RainbowKit flow. */
export function WalletLoginBlock() {
  const [hasExtension, setHasExtension] = useState<boolean | null>(null);
  const config = useRuntimeConfig();

  useEffect(() => {
    let live = true;
    void detectInjectedWallet().then((found) => live && setHasExtension(found));
    return () => {
      live = false;
    };
  }, []);

  const localChain = config.data?.isLocalChain ?? false;
  const canConnect = hasExtension === true || localChain;

  return (
    <section className="wallet-block" aria-labelledby="wallet-login-title" data-testid="wallet-block">
      <h2 id="wallet-login-title" className="wallet-block__title">Sign in with your wallet</h2>
      <ol className="wallet-steps">
        <li><span>1</span>Connect your wallet</li>
        <li><span>2</span>Sign a message to verify ownership</li>
        <li><span>3</span>Access your account</li>
      </ol>

      {hasExtension === false && (
        <div className="alert alert--warning" role="note" data-testid="wallet-required">
          <div>
            <p><strong>Wallet required</strong> — MetaMask is not installed.</p>
            <p className="small muted">Install a browser wallet extension such as MetaMask to sign in with your wallet.</p>
            <button type="button" className="btn btn--secondary btn--sm" onClick={() => window.open(WALLET_DOWNLOAD_URL, "_blank", "noopener,noreferrer")}>
              Install MetaMask
            </button>
            {localChain && <p className="small muted wallet-block__dev-note">On this local chain you can also use the <strong>Local dev wallet</strong> below: no extension needed.</p>}
          </div>
        </div>
      )}

      {canConnect && (
        <WithWallet>
          <WalletSignIn />
        </WithWallet>
      )}
    </section>
  );
}
