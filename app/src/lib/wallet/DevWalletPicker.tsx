import { useRuntimeConfig } from "../config";
import { shortAddress } from "../format";
import { useEffect } from "react";
import { useSession } from "../session";
import { DEV_WALLET_LABELS, followVerifiedDemoWallet, knownDevAddress, useDevWalletChoice, type DevWalletChoice } from "./devChoice";

/**
 * On the local chain only: which account the "Local dev wallet" signs with. It needs no wallet stack, so
 * the login page shows it before the stack loads.
 */
export function DevWalletPicker() {
  const config = useRuntimeConfig();
  const { choice, setChoice, freshAddress } = useDevWalletChoice();
  const verified = useSession((s) => s.user?.walletAddress ?? null);
  useEffect(() => followVerifiedDemoWallet(verified), [verified]);
  if (!config.data?.isLocalChain) return null;
  const address = knownDevAddress(choice, freshAddress);
  return (
    <div className="field dev-wallet" data-testid="dev-wallet-picker">
      <label htmlFor="dev-wallet-choice">Local dev wallet account</label>
      <select id="dev-wallet-choice" value={choice} onChange={(e) => setChoice(e.target.value as DevWalletChoice)}>
        {(Object.keys(DEV_WALLET_LABELS) as DevWalletChoice[]).map((c) => (
          <option key={c} value={c}>
            {DEV_WALLET_LABELS[c]}
          </option>
        ))}
      </select>
      <p className="field__hint">
        {/* As wide as a short address either way, so nothing moves when a new key's address becomes known. */}
        Signs as{" "}
        <code className="dev-wallet__address" data-testid="dev-wallet-address">
          {address ? shortAddress(address) : "a new key"}
        </code>{" "}
        on the local chain. Choose “Local dev wallet” after pressing Connect Wallet.
      </p>
    </div>
  );
}
