import { useMemo } from "react";
import { useRuntimeConfig } from "../config";
import { shortAddress } from "../format";
import { DEV_WALLET_LABELS, useDevWalletChoice, type DevWalletChoice } from "./devChoice";
import { devWalletAddress } from "./devWallet";

/** On the local chain only: which account the "Local dev wallet" signs with. */
export function DevWalletPicker() {
  const config = useRuntimeConfig();
  const { choice, setChoice } = useDevWalletChoice();
  const address = useMemo(() => devWalletAddress(choice), [choice]);
  if (!config.data?.isLocalChain) return null;
  return (
    <div className="field dev-wallet" data-testid="dev-wallet-picker">
      <label htmlFor="dev-wallet-choice">Local dev wallet account</label>
      <select id="dev-wallet-choice" value={choice} onChange={(e) => setChoice(e.target.value as DevWalletChoice)}>
        {(Object.keys(DEV_WALLET_LABELS) as DevWalletChoice[]).map((c) => (
          <option key={c} value={c}>{DEV_WALLET_LABELS[c]}</option>
        ))}
      </select>
      <p className="field__hint">
        Signs as <code>{shortAddress(address)}</code> on the local chain. Choose “Local dev wallet” after pressing Connect Wallet.
      </p>
    </div>
  );
}
