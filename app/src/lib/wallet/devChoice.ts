import { create } from "zustand";
import { persist } from "zustand/middleware";

/** Which local dev wallet account signs: a demo account of domain/devAccounts.ts, or a fresh funded key. */
export type DevWalletChoice = "demoBorrower" | "demoInvestor" | "demoAdmin" | "fresh";

export const DEV_WALLET_LABELS: Record<DevWalletChoice, string> = {
  demoBorrower: "Demo borrower (dev account #3)",
  demoInvestor: "Demo investor (dev account #4)",
  demoAdmin: "Demo admin wallet (dev account #5)",
  fresh: "New wallet (random key, funded by the dev faucet)",
};

/**
 * The demo accounts' public addresses (anvil's #3–#5, derived from domain/devAccounts.ts's keys; the wallet
 * journey checks they match what connects), so the picker names them without loading secp256k1 first.
 */
const DEMO_ADDRESSES: Record<Exclude<DevWalletChoice, "fresh">, string> = {
  demoBorrower: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
  demoInvestor: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
  demoAdmin: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
};

interface DevChoiceState {
  choice: DevWalletChoice;
  /** Whether the user picked the account; until then it follows their verified demo wallet. */
  chosen?: boolean;
  /** The fresh key's address, written by the dev wallet when it derives it; unknown until a key is made. */
  freshAddress?: string;
  setChoice: (choice: DevWalletChoice) => void;
}

export const useDevWalletChoice = create<DevChoiceState>()(persist((set) => ({ choice: "fresh", setChoice: (choice) => set({ choice, chosen: true }) }), { name: "loanmint-dev-wallet" }));

/** The dev wallet account that signs as this address, if it is one of the demo accounts. */
export function devChoiceFor(address: string | null | undefined): Exclude<DevWalletChoice, "fresh"> | undefined {
  const wanted = address?.toLowerCase();
  return (Object.keys(DEMO_ADDRESSES) as Exclude<DevWalletChoice, "fresh">[]).find((c) => DEMO_ADDRESSES[c].toLowerCase() === wanted);
}

/** Until the user picks an account, the dev wallet signs as their verified demo wallet, not a new random key. */
export function followVerifiedDemoWallet(verified: string | null | undefined) {
  const demo = devChoiceFor(verified);
  const state = useDevWalletChoice.getState();
  if (demo && !state.chosen && state.choice !== demo) useDevWalletChoice.setState({ choice: demo });
}

/** The address a choice signs with, when known without deriving a key. */
export function knownDevAddress(choice: DevWalletChoice, freshAddress: string | undefined): string | undefined {
  return choice === "fresh" ? freshAddress : DEMO_ADDRESSES[choice];
}
