import { createWalletClient, http as viemHttp, isHex, numberToHex, hexToBigInt, type Chain, type Hex, type TypedDataDefinition } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { http } from "../http";
import { useDevWalletChoice, type DevWalletChoice } from "./devChoice";

const FRESH_KEY = "loanmint-dev-wallet-fresh-key";
const FUNDED_KEY = "loanmint-dev-wallet-funded";
const CONNECTED_KEY = "loanmint-dev-wallet-connected";

type Handler = (...args: unknown[]) => void;

function rpcError(code: number, message: string) {
  return Object.assign(new Error(message), { code });
}

function freshKey(): Hex {
  let key = localStorage.getItem(FRESH_KEY) as Hex | null;
  if (!key || !isHex(key)) {
    key = generatePrivateKey();
    localStorage.setItem(FRESH_KEY, key);
  }
  return key;
}

function keyFor(choice: DevWalletChoice): Hex {
  return choice === "fresh" ? freshKey() : DEV_ACCOUNTS[choice];
}

/** The account a choice signs with; a fresh key's address is remembered for the picker, which derives nothing. */
function accountFor(choice: DevWalletChoice): PrivateKeyAccount {
  const account = privateKeyToAccount(keyFor(choice));
  if (choice === "fresh" && useDevWalletChoice.getState().freshAddress !== account.address) useDevWalletChoice.setState({ freshAddress: account.address });
  return account;
}

/**
 * An EIP-1193 provider for the local chain only: it signs with a dev key in the page and sends
 * everything else to the API's same-origin JSON-RPC proxy, so no extension is needed to try the
 * platform. A fresh key gets gas and test dollars from POST /api/dev/faucet.
 */
export function createDevWalletProvider(chain: Chain, rpcUrl: string) {
  const listeners = new Map<string, Set<Handler>>();
  const emit = (event: string, ...args: unknown[]) => listeners.get(event)?.forEach((h) => h(...args));
  let connected = localStorage.getItem(CONNECTED_KEY) === "1";
  let account: PrivateKeyAccount = accountFor(useDevWalletChoice.getState().choice);
  let rpcId = 0;

  useDevWalletChoice.subscribe((state, prev) => {
    if (state.choice === prev.choice) return;
    account = accountFor(state.choice);
    if (connected) void fund().finally(() => emit("accountsChanged", [account.address]));
  });

  /**
   * The estimate plus a quarter, as browser wallets give: a repayment's cost moves with the block's time (the
   * schedule's branch for the current period), so a limit of exactly the estimate ran out of gas now and then.
   */
  async function gasWithHeadroom(tx: { to?: Hex; data?: Hex; value?: Hex }): Promise<bigint> {
    const estimate = hexToBigInt((await rpc("eth_estimateGas", [{ from: account.address, to: tx.to, data: tx.data, value: tx.value }])) as Hex);
    return estimate + estimate / 4n;
  }

  async function rpc(method: string, params: unknown) {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params: params ?? [] }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (body.error) throw Object.assign(new Error(body.error.message), body.error);
    return body.result;
  }

  async function fund() {
    if (useDevWalletChoice.getState().choice !== "fresh") return;
    const funded = localStorage.getItem(FUNDED_KEY);
    if (funded === account.address) return;
    await http.post("/dev/faucet", { address: account.address });
    localStorage.setItem(FUNDED_KEY, account.address);
  }

  const wallet = () => createWalletClient({ account, chain, transport: viemHttp(rpcUrl) });

  async function request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
    const p = (params ?? []) as unknown[];
    switch (method) {
      case "eth_requestAccounts":
      case "wallet_requestPermissions": {
        try {
          await fund();
        } catch {
          throw rpcError(-32603, "The dev faucet did not fund the new wallet");
        }
        connected = true;
        localStorage.setItem(CONNECTED_KEY, "1");
        emit("connect", { chainId: numberToHex(chain.id) });
        return method === "eth_requestAccounts" ? [account.address] : [{ parentCapability: "eth_accounts" }];
      }
      case "wallet_getPermissions":
        return connected ? [{ parentCapability: "eth_accounts" }] : [];
      case "wallet_revokePermissions":
        connected = false;
        localStorage.removeItem(CONNECTED_KEY);
        emit("accountsChanged", []);
        return null;
      case "eth_accounts":
        return connected ? [account.address] : [];
      case "eth_chainId":
        return numberToHex(chain.id);
      case "net_version":
        return String(chain.id);
      case "wallet_switchEthereumChain": {
        const wanted = Number((p[0] as { chainId: string }).chainId);
        if (wanted !== chain.id) throw rpcError(4902, `The local dev wallet only knows chain ${chain.id}`);
        return null;
      }
      case "wallet_addEthereumChain":
        return null;
      case "personal_sign": {
        const [data] = p as [string];
        return account.signMessage({ message: isHex(data) ? { raw: data } : data });
      }
      case "eth_sign":
        return account.signMessage({ message: { raw: p[1] as Hex } });
      case "eth_signTypedData_v4": {
        const typed = JSON.parse(p[1] as string) as TypedDataDefinition & { types: Record<string, unknown> };
        const { EIP712Domain: _domain, ...types } = typed.types;
        return account.signTypedData({ ...typed, types } as TypedDataDefinition);
      }
      case "eth_sendTransaction": {
        const tx = p[0] as { to?: Hex; data?: Hex; value?: Hex; gas?: Hex };
        return wallet().sendTransaction({
          account,
          chain,
          to: tx.to,
          data: tx.data,
          value: tx.value ? hexToBigInt(tx.value) : undefined,
          gas: tx.gas ? hexToBigInt(tx.gas) : await gasWithHeadroom(tx),
        });
      }
      default:
        return rpc(method, params);
    }
  }

  return {
    isLoanMintDevWallet: true,
    request,
    on(event: string, handler: Handler) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(handler);
    },
    removeListener(event: string, handler: Handler) {
      listeners.get(event)?.delete(handler);
    },
  };
}
