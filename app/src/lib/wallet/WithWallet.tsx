import { lazy, Suspense, type ReactNode } from "react";
import { useRuntimeConfig } from "../config";
import { Spinner } from "../../components/Spinner";

const WalletRoot = lazy(() => import("./WalletRoot"));

/**
 * Loads the runtime configuration and the wallet stack on demand, then renders its children inside it.
 * `fallback={null}` draws nothing while loading; only a missing fallback gets the spinner.
 */
export function WithWallet({ children, fallback }: { children: ReactNode; fallback?: ReactNode }) {
  const config = useRuntimeConfig();
  const waiting =
    fallback !== undefined ? (
      fallback
    ) : (
      <div className="row gap-sm muted small" role="status">
        <Spinner /> Loading wallet…
      </div>
    );
  if (config.isError)
    return (
      <p className="field__error" role="alert">
        The wallet is unavailable: the network configuration could not be loaded.
      </p>
    );
  if (!config.data) return <>{waiting}</>;
  return (
    <Suspense fallback={waiting}>
      <WalletRoot config={config.data}>{children}</WalletRoot>
    </Suspense>
  );
}
