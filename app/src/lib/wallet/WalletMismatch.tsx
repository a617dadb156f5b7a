import { useAccount, useDisconnect } from "wagmi";
import { shortAddress } from "../format";
import { devChoiceFor, useDevWalletChoice } from "./devChoice";

/** The local dev wallet's connector id (wagmiConfig.ts). */
const DEV_CONNECTOR = "loanmint-dev";

/**
 * Connected with another account than the verified one: says so and offers the fix where it is read. The local dev
 * wallet switches to the verified demo account in place; any wallet can be disconnected to connect another.
 */
export function WalletMismatch({ address, verified }: { address: string; verified: string }) {
  const { connector } = useAccount();
  const { disconnect } = useDisconnect();
  const setChoice = useDevWalletChoice((s) => s.setChoice);
  const demo = connector?.id === DEV_CONNECTOR ? devChoiceFor(verified) : undefined;
  return (
    <div className="alert alert--warning small wallet-mismatch" role="alert" data-testid="wallet-bar">
      <div className="stack">
        <p>
          Your wallet is connected as <code>{shortAddress(address)}</code>, but your verified wallet is <code>{shortAddress(verified)}</code>.
          {demo ? " Switch the dev wallet to it, or disconnect." : " Switch accounts in your wallet, or disconnect and connect the verified one."}
        </p>
        <div className="row gap-sm">
          {demo && (
            <button type="button" className="btn btn--primary btn--sm" onClick={() => setChoice(demo)}>
              Switch to {shortAddress(verified)}
            </button>
          )}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => disconnect()}>
            Disconnect wallet
          </button>
        </div>
      </div>
    </div>
  );
}
