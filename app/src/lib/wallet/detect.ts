/** Whether a browser wallet extension injected a provider (window.ethereum or an EIP-6963 announcement). */
export function hasInjectedWallet(): boolean {
  return typeof window !== "undefined" && Boolean((window as { ethereum?: unknown }).ethereum);
}

/** Waits briefly for EIP-6963 announcements: some extensions announce without setting window.ethereum. */
export function detectInjectedWallet(timeoutMs = 300): Promise<boolean> {
  if (hasInjectedWallet()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAnnounce = () => {
      cleanup();
      resolve(true);
    };
    const timer = setTimeout(() => {
      cleanup();
      resolve(hasInjectedWallet());
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      window.removeEventListener("eip6963:announceProvider", onAnnounce);
    };
    window.addEventListener("eip6963:announceProvider", onAnnounce);
    window.dispatchEvent(new Event("eip6963:requestProvider"));
  });
}

export const WALLET_DOWNLOAD_URL = "https://metamask.io/download/";
