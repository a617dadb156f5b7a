import { connectorsForWallets, type Wallet } from "@rainbow-me/rainbowkit";
import { injectedWallet } from "@rainbow-me/rainbowkit/wallets";
import { defineChain, type Chain } from "viem";
import { createConfig, createConnector, http as wagmiHttp, type Config } from "wagmi";
import { injected } from "wagmi/connectors";
import type { PublicConfig } from "#domain/deployment";
import { createDevWalletProvider } from "./devWallet";
import { classifyConnectError, reportConnectFailure } from "./events";
import { hasInjectedWallet } from "./detect";

const DEV_ICON =
  "data:image/svg+xml;base64," +
  btoa('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 28 28"><rect width="28" height="28" rx="7" fill="#0d9488"/><path d="M8 19V9h3l3 5 3-5h3v10h-3v-5l-3 5-3-5v5z" fill="#fff"/></svg>');

/** Wraps a wallet so that a failed connect is reported with its cause, which each screen words itself. */
function withFailureReports(wallet: () => Wallet): () => Wallet {
  return () => {
    const w = wallet();
    return {
      ...w,
      createConnector: (details) => {
        const connectorFn = w.createConnector(details);
        return createConnector((config) => {
          const inner = connectorFn(config);
          return {
            ...inner,
            async connect(this: typeof inner, params?: Parameters<typeof inner.connect>[0]) {
              try {
                const result = await inner.connect.call(this, params);
                if (!result.accounts.length) {
                  reportConnectFailure("no-accounts");
                  throw new Error("No accounts");
                }
                return result;
              } catch (error) {
                if ((error as Error).message !== "No accounts") reportConnectFailure(classifyConnectError(error));
                throw error;
              }
            },
          } as typeof inner;
        });
      },
    };
  };
}

function localDevWallet(chain: Chain, rpcUrl: string): () => Wallet {
  const provider = createDevWalletProvider(chain, rpcUrl);
  return () => ({
    id: "loanmint-dev",
    name: "Local dev wallet",
    shortName: "Dev wallet",
    iconUrl: DEV_ICON,
    iconBackground: "#0d9488",
    installed: true,
    createConnector: (details) =>
      createConnector((config) => ({
        ...injected({ target: () => ({ id: "loanmint-dev", name: "Local dev wallet", provider: provider as never }) })(config),
        ...details,
      })),
  });
}

let cached: { key: string; config: Config; chain: Chain } | null = null;

/** One wagmi config per runtime configuration, reused across screens so a connection survives navigation. */
export function getWagmiConfig(pub: PublicConfig): { config: Config; chain: Chain } {
  const rpcUrl = new URL(pub.rpcUrl, window.location.origin).toString();
  const key = `${pub.chainId}|${rpcUrl}|${pub.isLocalChain}`;
  if (cached?.key === key) return cached;

  const chain = defineChain({
    id: pub.chainId,
    name: pub.isLocalChain ? "LoanMint local chain" : `Chain ${pub.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    testnet: pub.isLocalChain,
  });

  const wallets: Array<() => Wallet> = [];
  if (hasInjectedWallet()) wallets.push(withFailureReports(injectedWallet));
  if (pub.isLocalChain) wallets.push(withFailureReports(localDevWallet(chain, rpcUrl)));

  const connectors = connectorsForWallets([{ groupName: pub.isLocalChain ? "Available here" : "Installed", wallets }], {
    appName: "LoanMint",
    // Required by the type, unused: WalletConnect is not offered (it needs a remote relay).
    projectId: "loanmint-offline",
  });

  const config = createConfig({
    chains: [chain],
    connectors,
    transports: { [chain.id]: wagmiHttp(rpcUrl) },
    // Extensions are reached through window.ethereum so every failure can be worded as the spec says.
    multiInjectedProviderDiscovery: false,
    ssr: false,
  });
  cached = { key, config, chain };
  return cached;
}
