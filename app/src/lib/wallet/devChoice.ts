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

interface DevChoiceState {
  choice: DevWalletChoice;
  setChoice: (choice: DevWalletChoice) => void;
}

export const useDevWalletChoice = create<DevChoiceState>()(
  persist((set) => ({ choice: "fresh", setChoice: (choice) => set({ choice }) }), { name: "loanmint-dev-wallet" }),
);
