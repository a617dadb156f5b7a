import { createPublicClient, defineChain, http, type Chain, type PublicClient } from "viem";
import type { AppConfig } from "../config/env";

/** The configured chain as viem needs it; the name matters only in error texts. */
export function chainOf(config: Pick<AppConfig, "chainId" | "rpcUrl">): Chain {
  return defineChain({
    id: config.chainId,
    name: config.chainId === 31337 ? "Local chain" : `Chain ${config.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  });
}

/** Reads made in the same tick travel as one JSON-RPC batch, so views that read many notes cost few round trips. */
export function createChainClient(config: Pick<AppConfig, "chainId" | "rpcUrl">): PublicClient {
  return createPublicClient({ chain: chainOf(config), transport: http(config.rpcUrl, { timeout: 10_000, retryCount: 1, batch: { wait: 0 } }) });
}
