import { lazy, useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { detectInjectedWallet, WALLET_DOWNLOAD_URL } from "../../../lib/wallet/detect";
import { DevWalletPicker } from "../../../lib/wallet/DevWalletPicker";
import { hasStoredWalletConnection } from "../../../lib/wallet/storedConnection";
import { WithWallet } from "../../../lib/wallet/WithWallet";
import { shortAddress } from "../../../lib/format";
import { configQuery } from "../../../lib/config";
import { useAfterFirstPaint } from "../../../lib/firstPaint";
import type { WalletSignInState } from "./walletSignInState";

const WalletSignIn = lazy(() => import("./WalletSignIn"));

/**
 * The wallet login block: the notice without an extension, else the RainbowKit flow.
 * The wallet stack (RainbowKit + wagmi + viem, about 200 kB gzip) loads when the visitor reaches for the
 * block (pointer, focus or press) or at once for a browser with a stored wallet connection; until then
 * this block is drawn as it will look, so nothing moves when the stack arrives. What only the network
 * configuration decides (the local dev wallet's picker), and the notice that no extension was found, come below
 * the button, so the button keeps its place when they arrive too.
 */
export function WalletLoginBlock() {
  const [hasExtension, setHasExtension] = useState<boolean | null>(null);
  // The network configuration (and its schema) only decides the dev wallet's picker: fetched after the page
  // has painted, so the form's own chunks have the connection to themselves.
  const config = useQuery({ ...configQuery, enabled: useAfterFirstPaint() });
  const [wanted, setWanted] = useState(hasStoredWalletConnection);
  const [openNow, setOpenNow] = useState(false);
  const [wallet, setWallet] = useState<WalletSignInState>();

  useEffect(() => {
    let live = true;
    void detectInjectedWallet().then((found) => live && setHasExtension(found));
    return () => {
      live = false;
    };
  }, []);

  const localChain = config.data?.isLocalChain ?? false;
  // Drawn while still unknown too: most visitors can connect, and a late button would push the page down.
  const canConnect = hasExtension !== false || localChain || config.isPending;
  const want = () => setWanted(true);
  const connectWhenLoaded = () => {
    setWanted(true);
    setOpenNow(true);
  };
  const loading = openNow && !wallet;

  const button = !wallet
    ? { label: loading ? "Loading wallet…" : "Connect Wallet", disabled: false, onClick: connectWhenLoaded }
    : wallet.address
      ? { label: wallet.authenticating ? "Authenticating..." : "Sign In with Wallet", disabled: wallet.authenticating, onClick: wallet.signIn }
      : { label: wallet.connecting ? "Connecting Wallet..." : "Connect Wallet", disabled: wallet.connecting, onClick: wallet.connect };

  return (
    <section className="wallet-block" aria-labelledby="wallet-login-title" data-testid="wallet-block" onPointerEnter={want} onPointerDown={want} onFocus={want}>
      <h2 id="wallet-login-title" className="wallet-block__title">
        Sign in with your wallet
      </h2>
      <ol className="wallet-steps">
        <li>
          <span>1</span>Connect your wallet
        </li>
        <li>
          <span>2</span>Sign a message to verify ownership
        </li>
        <li>
          <span>3</span>Access your account
        </li>
      </ol>

      {canConnect && (
        <div className="stack wallet-sign-in">
          {wallet?.address && (
            <div className="address-badge" data-testid="connected-address">
              <span className="dot" aria-hidden="true" /> Connected <code>{shortAddress(wallet.address)}</code>
            </div>
          )}
          {wallet?.error && (
            <div className="alert alert--danger" role="alert" data-testid="wallet-error">
              <p>{wallet.error}</p>
            </div>
          )}
          {/* One button before and after the stack loads: it keeps its place and its focus. */}
          <button type="button" className="btn btn--secondary btn--block btn--lg" onClick={button.onClick} disabled={button.disabled} aria-busy={loading || undefined}>
            {button.label}
          </button>
          <p className="sr-only" role="status">
            {loading ? "Loading wallet…" : ""}
          </p>
          {/* Below the button: it needs the network configuration, fetched after the first paint, and drawn above it
              pushed the button down as it came. A press under way then ended on the picker and fired no click. */}
          {localChain && <DevWalletPicker />}
          {wanted && (
            <WithWallet fallback={null}>
              <WalletSignIn onChange={setWallet} openNow={openNow} onOpened={() => setOpenNow(false)} />
            </WithWallet>
          )}
        </div>
      )}

      {/* After the button: the search for an extension takes up to 300 ms, and a notice drawn above would push the
          button down under a press already on its way. */}
      {hasExtension === false && (
        <div className="alert alert--warning" role="note" data-testid="wallet-required">
          <div>
            <p>
              <strong>Wallet required</strong> — MetaMask is not installed.
            </p>
            <p className="small muted">Install a browser wallet extension such as MetaMask to sign in with your wallet.</p>
            <button type="button" className="btn btn--secondary btn--sm" onClick={() => window.open(WALLET_DOWNLOAD_URL, "_blank", "noopener,noreferrer")}>
              Install MetaMask
            </button>
            {localChain && (
              <p className="small muted wallet-block__dev-note">
                On this local chain you can also use the <strong>Local dev wallet</strong> above: no extension needed.
              </p>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
