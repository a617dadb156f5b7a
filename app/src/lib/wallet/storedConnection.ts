/**
 * Whether wagmi remembers a connected wallet in this browser (its persisted store names a current
 * connection): such a visitor gets the wallet stack at once, to reconnect, instead of on intent.
 */
export function hasStoredWalletConnection(): boolean {
  try {
    const raw = localStorage.getItem("wagmi.store");
    if (!raw) return false;
    const stored = JSON.parse(raw) as { state?: { current?: string | null } };
    return Boolean(stored.state?.current);
  } catch {
    return false;
  }
}
