import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createPublicClient, createWalletClient, http, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { startAnvil, type Anvil } from "#devchain/anvil";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { testDollarAbi } from "#domain/abis";
import { deployAll } from "#contracts/deploy";
import { startTestApi, type TestApi } from "./testing/harness";
import { testContracts } from "./testing/contracts";

// One private chain for the suites that need one: contract-wallet sign-in, the RPC proxy, the faucet, config and health.
let anvil: Anvil;
let api: TestApi;
const publicClient = () => createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });

async function deploy(name: "OwnerWallet", args: unknown[] = []): Promise<Address> {
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
        const response = await fetch(`${limited.url}/api/rpc`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
        });
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
      adminSignup: false,
    });
  });

  test("GET /health reports the database and the chain", async () => {
    const answer = await api.call("GET", "/health");
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.database, "ok");
    assert.equal(answer.body.data.chain, "ok");
    assert.equal(answer.body.data.status, "ok");
  });

  test("the faucet pays ETH and test dollars from its own account, never the deployer's, and holds no role; GET /config shows the deployment", async () => {
    const deployment = await deployAll({ rpcUrl: anvil.rpcUrl, dataDir: api.config.dataDir });
    assert.equal((await api.call("GET", "/config")).body.data.contracts.stablecoin, deployment.contracts.stablecoin);
    const stablecoin = deployment.contracts.stablecoin as Address;
    const [deployer, faucet] = [privateKeyToAccount(DEV_ACCOUNTS.deployer).address, privateKeyToAccount(DEV_ACCOUNTS.faucet).address];
    const dollars = (address: Address) => publicClient().readContract({ address: stablecoin, abi: testDollarAbi, functionName: "balanceOf", args: [address] });
    const snapshot = async (address: Address) => ({
      eth: await publicClient().getBalance({ address }),
      dollars: await dollars(address),
      nonce: await publicClient().getTransactionCount({ address }),
    });
    const [deployerBefore, faucetBefore] = [await snapshot(deployer), await snapshot(faucet)];

    const to = privateKeyToAccount(generatePrivateKey()).address;
    const answer = await api.call("POST", "/dev/faucet", { body: { address: to } });
    assert.equal(answer.status, 200, answer.body.message);
    assert.equal(answer.body.message, `Sent 1 ETH and 10000 test dollars to ${to}`);
    assert.equal(await publicClient().getBalance({ address: to }), 10n ** 18n);
    assert.equal(await dollars(to), 10_000_000_000n);
    for (const hash of [answer.body.data.ethTxHash, answer.body.data.stablecoinTxHash] as Hex[]) {
      assert.equal((await publicClient().getTransaction({ hash })).from, faucet.toLowerCase());
    }
    assert.deepEqual(await snapshot(deployer), deployerBefore, "the deployer sent nothing and minted nothing");
    const faucetAfter = await snapshot(faucet);
    assert.equal(faucetAfter.dollars, faucetBefore.dollars - 10_000_000_000n);
    assert.equal(faucetAfter.nonce, faucetBefore.nonce + 2);
    const roles = await Promise.all(
      (["DEFAULT_ADMIN_ROLE", "MINTER_ROLE"] as const).map(async (name) => {
        const role = await publicClient().readContract({ address: stablecoin, abi: testDollarAbi, functionName: name });
        return publicClient().readContract({ address: stablecoin, abi: testDollarAbi, functionName: "hasRole", args: [role, faucet] });
      }),
    );
    assert.deepEqual(roles, [false, false]);
  });

  test("the faucet serves concurrent requests without nonce clashes and limits each funded address", async () => {
    const limited = await startTestApi({ rpcUrl: anvil.rpcUrl, rateLimits: { faucet: { max: 1, windowMs: 60_000 } } });
    try {
      const wallets = [0, 1, 2].map(() => privateKeyToAccount(generatePrivateKey()).address);
      const answers = await Promise.all(wallets.map((address) => limited.call("POST", "/dev/faucet", { body: { address } })));
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200],
      );
      // Each address got its own drip, exactly once: a 200 for a transfer sent elsewhere would pass the statuses.
      assert.deepEqual(
        answers.map((a) => a.body.data.address),
        wallets,
      );
      assert.deepEqual(await Promise.all(wallets.map((address) => publicClient().getBalance({ address }))), [10n ** 18n, 10n ** 18n, 10n ** 18n]);
      for (const [i, answer] of answers.entries()) {
        const tx = await publicClient().getTransaction({ hash: answer.body.data.ethTxHash as Hex });
        assert.equal(tx.to?.toLowerCase(), wallets[i].toLowerCase());
        assert.equal(tx.value, 10n ** 18n);
      }
      const again = await limited.call("POST", "/dev/faucet", { body: { walletAddress: wallets[0] } });
      assert.equal(again.status, 429);
      assert.equal(again.body.message, "This wallet was funded recently. Please try again later.");
      assert.equal(await publicClient().getBalance({ address: wallets[0] }), 10n ** 18n, "a refused drip sends nothing");
      const bad = await limited.call("POST", "/dev/faucet", { body: { address: "0x12" } });
      assert.equal(bad.status, 400);
    } finally {
      await limited.close();
    }
  });

  test("the faucet limits each client address, whatever addresses it asks to fund", async () => {
    // Behind a trusted proxy, X-Forwarded-For names the client.
    const limited = await startTestApi({ rpcUrl: anvil.rpcUrl, env: { TRUST_PROXY: "loopback" }, rateLimits: { faucetClient: { max: 2, windowMs: 60 * 60_000 } } });
    try {
      const ask = (client: string) => limited.call("POST", "/dev/faucet", { body: { address: privateKeyToAccount(generatePrivateKey()).address }, headers: { "x-forwarded-for": client } });
      assert.deepEqual([(await ask("203.0.113.7")).status, (await ask("203.0.113.7")).status], [200, 200]);
      const refused = await ask("203.0.113.7");
      assert.equal(refused.status, 429);
      assert.equal(refused.body.message, "You have asked the faucet too often. Please try again later.");
      assert.ok(Number(refused.headers.get("retry-after")) > 0);
      assert.equal((await ask("203.0.113.8")).status, 200, "another client has its own allowance");
    } finally {
      await limited.close();
    }
  });

  test("the faucet pays out at most its budget per hour, whoever asks", async () => {
    const limited = await startTestApi({ rpcUrl: anvil.rpcUrl, env: { TRUST_PROXY: "loopback" }, rateLimits: { faucetBudget: { max: 3, windowMs: 60 * 60_000 } } });
    try {
      const statuses: number[] = [];
      let last;
      for (const client of ["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"]) {
        last = await limited.call("POST", "/dev/faucet", { body: { address: privateKeyToAccount(generatePrivateKey()).address }, headers: { "x-forwarded-for": client } });
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      assert.equal(last!.body.message, "The faucet has paid out its budget for this hour. Please try again later.");
    } finally {
      await limited.close();
    }
  });

  test("a dry faucet answers 503 with what to do, and sends nothing", async () => {
    const faucet = privateKeyToAccount(DEV_ACCOUNTS.faucet).address;
    const [balance, nonce] = [await publicClient().getBalance({ address: faucet }), await publicClient().getTransactionCount({ address: faucet })];
    await publicClient().request({ method: "anvil_setBalance" as never, params: [faucet, "0x0"] as never });
    try {
      const answer = await api.call("POST", "/dev/faucet", { body: { address: privateKeyToAccount(generatePrivateKey()).address } });
      assert.equal(answer.status, 503);
      assert.equal(answer.body.message, "The faucet's account has run dry; restart with `npm start`, which tops it up");
      assert.equal(await publicClient().getTransactionCount({ address: faucet }), nonce);
    } finally {
      await publicClient().request({ method: "anvil_setBalance" as never, params: [faucet, `0x${balance.toString(16)}`] as never });
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
