import { useMemo, type ReactNode } from "react";
import { WagmiContext, type Config } from "wagmi";
import { reconnect } from "wagmi/actions";
import { RainbowKitProvider, darkTheme, lightTheme } from "@rainbow-me/rainbowkit";
import "@rainbow-me/rainbowkit/styles.css";
import type { PublicConfig } from "#domain/deployment";
import { useTheme } from "../../shell/theme";
import { getWagmiConfig } from "./wagmiConfig";
import { WalletWatcher } from "./WalletWatcher";

const accent = { accentColor: "#0d9488", accentColorForeground: "white", borderRadius: "medium" } as const;

/**
 * wagmi's context, reconnecting a stored wallet once per mounted stack. wagmi's own WagmiProvider (ssr: false)
 * calls reconnect() in every render (wevm/wagmi#3794), and each call sets the status to 'connecting' until it
 * has asked the connectors: a screen that re-renders on the wallet's state re-rendered the provider, which
 * restarted the reconnect, which changed the state again. On the login page that loop never ended: the
 * button flickered "Connecting Wallet..." (disabled) and a press landing on it was lost.
 * Started in the first render as wagmi does, so a returning wallet reads 'reconnecting', not 'disconnected'.
 */
function WagmiRoot({ config, children }: { config: Config; children: ReactNode }) {
  useMemo(() => void reconnect(config), [config]);
  return <WagmiContext.Provider value={config}>{children}</WagmiContext.Provider>;
}

/** The wallet stack (wagmi + RainbowKit): loaded only by screens that use a wallet. */
export default function WalletRoot({ config, children }: { config: PublicConfig; children: ReactNode }) {
  const { config: wagmiConfig, chain } = getWagmiConfig(config);
  const theme = useTheme((s) => s.theme);
  return (
    <WagmiRoot config={wagmiConfig}>
      <RainbowKitProvider initialChain={chain} modalSize="compact" theme={theme === "dark" ? darkTheme(accent) : lightTheme(accent)} appInfo={{ appName: "LoanMint" }}>
        <WalletWatcher />
        {children}
      </RainbowKitProvider>
    </WagmiRoot>
  );
}
