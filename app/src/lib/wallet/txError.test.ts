import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createConfig } from "wagmi";
import { connect, sendTransaction } from "wagmi/actions";
import { injected } from "wagmi/connectors";
import { createWalletClient, defineChain, encodeFunctionData, hexToBigInt, http, type Address, type EIP1193Provider, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { startTestChain, type TestChain } from "#testing/chain";
import { CONTRACT_ERROR_SENTENCES } from "#domain/contractErrors";
import { noteMarketplaceAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { revertedTransactionError, walletErrorMessage } from "./txError";

// A real revert on anvil, reached the way the app sends: wagmi's sendTransaction through an injected wallet.
let chain: TestChain;
const STALE = "This listing changed after you opened it: the price or the note moved. Reload to see the current offer.";
const PRICE = 500_000_000n;

before(async () => {
  chain = await startTestChain();
  // A repayment after the listing changes the note the buyer priced: the listing is stale.
  await chain.originate(7n);
  await chain.list(7n, PRICE);
  await chain.repay(7n, 10_000_000n);
});
after(() => chain?.stop());

/** An EIP-1193 wallet as a browser extension is: it signs eth_sendTransaction, forwards the rest, and passes the node's errors on. */
function injectedWallet(rpcUrl: string): EIP1193Provider {
  const anvil = defineChain({ id: 31337, name: "anvil", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
  const signer = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.demoInvestor), chain: anvil, transport: http(rpcUrl) });
  let id = 0;
  async function forward(method: string, params: unknown) {
    const res = await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: params ?? [] }) });
    const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (body.error) throw Object.assign(new Error(body.error.message), body.error);
    return body.result;
  }
  const request = async ({ method, params }: { method: string; params?: unknown }) => {
    if (method === "eth_requestAccounts" || method === "eth_accounts") return [signer.account.address];
    if (method === "eth_chainId") return "0x7a69";
    if (method !== "eth_sendTransaction") return forward(method, params);
    const tx = (params as [{ to: Address; data: Hex; gas?: Hex }])[0];
    return signer.sendTransaction({ to: tx.to, data: tx.data, gas: tx.gas ? hexToBigInt(tx.gas) : undefined });
  };
  return { request, on: () => {}, removeListener: () => {} } as unknown as EIP1193Provider;
}

async function connectedWagmi() {
  // wagmi's injected connector works only where a `window` is (it listens for wallets announcing themselves);
  // the wallet itself is given to it directly.
  if (typeof window === "undefined") Object.assign(globalThis, { window: new EventTarget() });
  const anvil = defineChain({ id: 31337, name: "anvil", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [chain.rpcUrl] } } });
  const connector = injected({ target: () => ({ id: "test", name: "Test wallet", provider: injectedWallet(chain.rpcUrl) }) });
  const config = createConfig({ chains: [anvil], connectors: [connector], transports: { [anvil.id]: http(chain.rpcUrl) }, storage: null });
  await connect(config, { connector: config.connectors[0] });
  return config;
}

const buyCall = () => ({ to: chain.deployment.contracts.marketplace as Address, data: encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "buy", args: [7n, PRICE] }) });

test("a transaction the wallet cannot send because the listing moved is shown as the contract's sentence", async () => {
  const config = await connectedWagmi();
  const error = await sendTransaction(config, buyCall()).then(
    () => assert.fail("the stale purchase was sent"),
    (e: unknown) => e,
  );
  assert.equal(CONTRACT_ERROR_SENTENCES.ListingStale, STALE);
  assert.equal(walletErrorMessage(error, "The purchase failed"), STALE);
});

test("a transaction mined as reverted is explained by replaying it on its block's state", async () => {
  const config = await connectedWagmi();
  // A fixed gas limit skips the estimate, as when the state changes between the estimate and the block.
  const hash = await sendTransaction(config, { ...buyCall(), gas: 300_000n });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  assert.equal(receipt.status, "reverted");
  const error = await revertedTransactionError(chain.publicClient, receipt);
  assert.deepEqual([error.message, error.hash, walletErrorMessage(error, "The purchase failed")], [STALE, hash, STALE]);
});
