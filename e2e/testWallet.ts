import type { Page } from "@playwright/test";
import { createWalletClient, defineChain, hexToBigInt, http, isHex, type Hex, type TypedDataDefinition } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { E2E_RPC_URL } from "./stack";

/**
 * An injected EIP-1193 wallet for the page: window.ethereum (also announced with EIP-6963) whose
 * requests reach Node, which signs with viem and forwards everything else to the private chain.
 * Like a real wallet, it shows no accounts until the page asks for them.
 */
export async function installTestWallet(page: Page, privateKey: Hex = generatePrivateKey(), options: { onRequest?: (method: string) => void } = {}) {
  const account = privateKeyToAccount(privateKey);
  const chain = defineChain({ id: 31337, name: "anvil", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [E2E_RPC_URL] } } });
  const wallet = createWalletClient({ account, chain, transport: http(E2E_RPC_URL) });
  let connected = false;
  let id = 0;

  async function forward(method: string, params: unknown) {
    const res = await fetch(E2E_RPC_URL, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: params ?? [] }) });
    const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (body.error) throw body.error;
    return body.result;
  }

  async function handle(method: string, params: unknown[]): Promise<unknown> {
    // A journey can count what the page asked the wallet for, e.g. that nothing was sent before a review's Confirm.
    options.onRequest?.(method);
    switch (method) {
      case "eth_requestAccounts":
        connected = true;
        return [account.address];
      case "wallet_requestPermissions":
        connected = true;
        return [{ parentCapability: "eth_accounts" }];
      case "wallet_getPermissions":
        return connected ? [{ parentCapability: "eth_accounts" }] : [];
      case "wallet_revokePermissions":
        connected = false;
        return null;
      case "eth_accounts":
        return connected ? [account.address] : [];
      case "eth_chainId":
        return "0x7a69";
      case "wallet_switchEthereumChain":
      case "wallet_addEthereumChain":
        return null;
      case "personal_sign": {
        const data = params[0] as string;
        return account.signMessage({ message: isHex(data) ? { raw: data } : data });
      }
      case "eth_signTypedData_v4": {
        const typed = JSON.parse(params[1] as string) as TypedDataDefinition & { types: Record<string, unknown> };
        const { EIP712Domain: _d, ...types } = typed.types;
        return account.signTypedData({ ...typed, types } as TypedDataDefinition);
      }
      case "eth_sendTransaction": {
        const tx = params[0] as { to?: Hex; data?: Hex; value?: Hex; gas?: Hex };
        return wallet.sendTransaction({ to: tx.to, data: tx.data, value: tx.value ? hexToBigInt(tx.value) : undefined, gas: tx.gas ? hexToBigInt(tx.gas) : undefined });
      }
      default:
        return forward(method, params);
    }
  }

  await page.exposeFunction("__e2eWalletRequest", async (method: string, params: unknown[]) => {
    try {
      return { result: await handle(method, params ?? []) };
    } catch (error) {
      // A revert's data travels with the error, as browser wallets pass it on: the app decodes the contract's reason from it.
      const e = error as { code?: number; message?: string; data?: unknown };
      return { error: { code: e.code ?? -32603, message: e.message ?? String(error), data: e.data } };
    }
  });

  await page.addInitScript(() => {
    const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
    const provider = {
      isE2EWallet: true,
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const answer = await (
          window as unknown as { __e2eWalletRequest: (m: string, p: unknown[]) => Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> }
        ).__e2eWalletRequest(method, params ?? []);
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code, data: answer.error.data });
        return answer.result;
      },
      on(event: string, fn: (...args: unknown[]) => void) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)!.add(fn);
        return provider;
      },
      removeListener(event: string, fn: (...args: unknown[]) => void) {
        listeners.get(event)?.delete(fn);
        return provider;
      },
    };
    Object.defineProperty(window, "ethereum", { value: provider, configurable: true });
    const info = Object.freeze({
      uuid: "6c1a9a44-0000-4000-8000-e2e000000001",
      name: "E2E Test Wallet",
      icon: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'/>",
      rdns: "dev.loanmint.e2e",
    });
    const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
    window.addEventListener("eip6963:requestProvider", announce);
    announce();
  });

  return { address: account.address, privateKey };
}
