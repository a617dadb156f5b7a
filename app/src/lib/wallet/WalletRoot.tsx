import type { ReactNode } from "react";
import { WagmiProvider } from "wagmi";
import { RainbowKitProvider, darkTheme, lightTheme } from "@rainbow-me/rainbowkit";
import "@rainbow-me/rainbowkit/styles.css";
import type { PublicConfig } from "#domain/deployment";
import { useTheme } from "../../shell/theme";
import { getWagmiConfig } from "./wagmiConfig";
import { WalletWatcher } from "./WalletWatcher";

const accent = { accentColor: "#0d9488", accentColorForeground: "white", borderRadius: "medium" } as const;

/** The wallet stack (wagmi + RainbowKit): loaded only by screens that use a wallet. */
export default function WalletRoot({ config, children }: { config: PublicConfig; children: ReactNode }) {
  const { config: wagmiConfig, chain } = getWagmiConfig(config);
  const theme = useTheme((s) => s.theme);
  return (
    <WagmiProvider config={wagmiConfig}>
      <RainbowKitProvider initialChain={chain} modalSize="compact" theme={theme === "dark" ? darkTheme(accent) : lightTheme(accent)} appInfo={{ appName: "LoanMint" }}>
        <WalletWatcher />
        {children}
      </RainbowKitProvider>
    </WagmiProvider>
  );
}
