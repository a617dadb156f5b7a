import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPublicClient, createWalletClient, http, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { startAnvil, type Anvil } from "../../devchain/anvil";
import { DEV_ACCOUNTS } from "../../domain/devAccounts";
import { startTestApi, type TestApi } from "./testing/harness";
import { testContracts } from "./testing/contracts";

// One private chain for the suites that need one: contract-wallet sign-in, the RPC proxy, the faucet, config and health.
let anvil: Anvil;
let api: TestApi;
const publicClient = () => createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });

async function deploy(name: "OwnerWallet" | "MintableDollar", args: unknown[] = []): Promise<Address> {
  const { abi, bytecode } = testContracts()[name];
  const wallet = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.deployer), chain: foundry, transport: http(anvil.rpcUrl) });
  const hash = await wallet.deployContract({ abi, bytecode, args });
  const receipt = await publicClient().waitForTransactionReceipt({ hash });
  return receipt.contractAddress!;
}

before(async () => {
  anvil = await startAnvil();
  api = await startTestApi({ rpcUrl: anvil.rpcUrl });
});
after(async () => {
  await api?.close();
  await anvil?.stop();
});

describe("EIP-1271 contract wallets", () => {
  test("sign in when the wallet contract accepts its owner's signature", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const contractWallet = await deploy("OwnerWallet", [owner.address]);
    const issued = await api.call("POST", "/auth/wallet/connect", { body: { walletAddress: contractWallet } });
    const { message, nonce } = issued.body.data;
    const signature = await owner.signMessage({ message });
    const answer = await api.call("POST", "/auth/wallet/verify", { body: { walletAddress: contractWallet, signature, message, nonce } });
    assert.equal(answer.status, 200, answer.body.message);
    assert.equal(answer.body.data.user.walletAddress, contractWallet.toLowerCase());
  });

  test("are refused when someone else signs", async () => {
    const contractWallet = await deploy("OwnerWallet", [privateKeyToAccount(generatePrivateKey()).address]);
    const issued = await api.call("POST", "/auth/wallet/connect", { body: { walletAddress: contractWallet } });
    const { message, nonce } = issued.body.data;
    const signature = await privateKeyToAccount(generatePrivateKey()).signMessage({ message });
    const answer = await api.call("POST", "/auth/wallet/verify", { body: { walletAddress: contractWallet, signature, message, nonce } });
    assert.equal(answer.status, 401);
    assert.equal(answer.body.message, "Invalid wallet signature");
  });
});

describe("the RPC proxy", () => {
  const rpc = async (body: unknown) => {
    const response = await fetch(`${api.url}/api/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as any };
  };

  test("forwards reads", async () => {
    const answer = await rpc({ jsonrpc: "2.0", id: 7, method: "eth_chainId", params: [] });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { jsonrpc: "2.0", id: 7, result: "0x7a69" });
  });

  test("refuses methods that would use the node's keys or change the node", async () => {
    for (const method of ["eth_sendTransaction", "eth_sign", "anvil_setBalance", "evm_mine", "debug_traceTransaction", "personal_sign"]) {
      const answer = await rpc({ jsonrpc: "2.0", id: 1, method, params: [] });
      assert.equal(answer.body.error.code, -32601, method);
    }
  });

  test("answers a batch call by call, forwarding only the allowed ones", async () => {
    const answer = await rpc([
      { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] },
      { jsonrpc: "2.0", id: 2, method: "anvil_setBalance", params: [DEV_ACCOUNTS.deployer, "0x1"] },
      { jsonrpc: "2.0", id: 3, method: "eth_getBalance", params: [privateKeyToAccount(DEV_ACCOUNTS.deployer).address, "latest"] },
    ]);
    assert.equal(answer.body.length, 3);
    assert.match(answer.body[0].result, /^0x/);
    assert.equal(answer.body[1].error.code, -32601);
    assert.ok(BigInt(answer.body[2].result) > 0n);
  });

  test("relays a signed transaction", async () => {
    const sender = privateKeyToAccount(DEV_ACCOUNTS.deployer);
    const client = createWalletClient({ account: sender, chain: foundry, transport: http(`${api.url}/api/rpc`) });
    const hash = await client.sendTransaction({ to: privateKeyToAccount(generatePrivateKey()).address, value: 1n });
    const receipt = await publicClient().waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
  });

  test("is rate-limited", async () => {
    const limited = await startTestApi({ rpcUrl: anvil.rpcUrl, rateLimits: { rpc: { max: 2, windowMs: 60_000 } } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${limited.url}/api/rpc`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }) });
        statuses.push(response.status);
        await response.arrayBuffer();
      }
      assert.deepEqual(statuses, [200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe("config, health and the dev faucet", () => {
  test("GET /config gives the chain, the proxy URL and no contracts before a deployment", async () => {
    const answer = await api.call("GET", "/config");
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.data, {
      chainId: 31337,
      rpcUrl: "/api/rpc",
      explorerUrl: null,
      isLocalChain: true,
      contracts: null,
      treasury: null,
      stablecoinDecimals: 6,
    });
  });

  test("GET /health reports the database and the chain", async () => {
    const answer = await api.call("GET", "/health");
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.database, "ok");
    assert.equal(answer.body.data.chain, "ok");
    assert.equal(answer.body.data.status, "ok");
  });

  test("the faucet sends ETH and mints test dollars from the deployer, and GET /config shows the deployment", async () => {
    const stablecoin = await deploy("MintableDollar");
    const deployment = {
      chainId: 31337,
      genesisHash: (await publicClient().getBlock({ blockNumber: 0n })).hash,
      deployBlock: 0,
      contracts: { loanNote: stablecoin, marketplace: stablecoin, vault: stablecoin, stablecoin },
      treasury: privateKeyToAccount(DEV_ACCOUNTS.treasury).address,
      originator: privateKeyToAccount(DEV_ACCOUNTS.originator).address,
    };
    mkdirSync(join(api.config.dataDir, "deployments"), { recursive: true });
    writeFileSync(join(api.config.dataDir, "deployments", "31337.json"), JSON.stringify(deployment));
    assert.equal((await api.call("GET", "/config")).body.data.contracts.stablecoin, stablecoin);

    const to = privateKeyToAccount(generatePrivateKey()).address;
    const answer = await api.call("POST", "/dev/faucet", { body: { address: to } });
    assert.equal(answer.status, 200, answer.body.message);
    assert.equal(await publicClient().getBalance({ address: to }), 10n ** 19n);
    const balance = await publicClient().readContract({
      address: stablecoin,
      abi: testContracts().MintableDollar.abi,
      functionName: "balanceOf",
      args: [to],
    });
    assert.equal(balance, 10_000_000_000n);
    assert.match(answer.body.data.stablecoinTxHash as Hex, /^0x[0-9a-f]{64}$/);
  });

  test("the faucet serves concurrent requests without nonce clashes and limits each address", async () => {
    const limited = await startTestApi({ rpcUrl: anvil.rpcUrl, rateLimits: { faucet: { max: 1, windowMs: 60_000 } } });
    try {
      const wallets = [0, 1, 2].map(() => privateKeyToAccount(generatePrivateKey()).address);
      const answers = await Promise.all(wallets.map((address) => limited.call("POST", "/dev/faucet", { body: { address } })));
      assert.deepEqual(answers.map((a) => a.status), [200, 200, 200]);
      // Each address got its own drip, exactly once: a 200 for a transfer sent elsewhere would pass the statuses.
      assert.deepEqual(answers.map((a) => a.body.data.address), wallets);
      assert.deepEqual(await Promise.all(wallets.map((address) => publicClient().getBalance({ address }))), [10n ** 19n, 10n ** 19n, 10n ** 19n]);
      for (const [i, answer] of answers.entries()) {
        const tx = await publicClient().getTransaction({ hash: answer.body.data.ethTxHash as Hex });
        assert.equal(tx.to?.toLowerCase(), wallets[i].toLowerCase());
        assert.equal(tx.value, 10n ** 19n);
      }
      const again = await limited.call("POST", "/dev/faucet", { body: { walletAddress: wallets[0] } });
      assert.equal(again.status, 429);
      assert.equal(await publicClient().getBalance({ address: wallets[0] }), 10n ** 19n, "a refused drip sends nothing");
      const bad = await limited.call("POST", "/dev/faucet", { body: { address: "0x12" } });
      assert.equal(bad.status, 400);
    } finally {
      await limited.close();
    }
  });

  test("the faucet does not exist on any other chain", async () => {
    const mainnet = await startTestApi({ rpcUrl: anvil.rpcUrl, env: { CHAIN_ID: "1" } });
    try {
      const answer = await mainnet.call("POST", "/dev/faucet", { body: { address: privateKeyToAccount(generatePrivateKey()).address } });
      assert.equal(answer.status, 404);
      assert.equal((await mainnet.call("GET", "/config")).body.data.isLocalChain, false);
    } finally {
      await mainnet.close();
    }
  });
});
