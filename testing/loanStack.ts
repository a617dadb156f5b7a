import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { createPublicClient, createWalletClient, encodeFunctionData, http, type Address, type Hex, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { deployAll, ensureCompiled } from "#contracts/deploy";
import { startAnvil, type Anvil } from "#devchain/anvil";
import type { Deployment } from "#domain/deployment";
import { loanNoteAbi, noteMarketplaceAbi } from "#domain/abis";
import { PAR_BPS, parPrice } from "#domain/orders";
import { startIndexer, type Indexer } from "#indexer/index";
import { notifications, users, type UserRow } from "#db/schema";
import type { KycStatus } from "#domain/statuses";
import { newRegistration, startTestApi, type TestApi } from "#api/testing/harness";
import type { LoanLifecycle } from "#api/loans/lifecycle";
import type { RateLimits } from "#api/http/rateLimit";
import type { Services } from "#api/app";

/** A JSON-RPC relay in front of anvil that can go dark, so a test can take "the chain" down and bring it back. */
export interface ChainRelay {
  url: string;
  down(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startRelay(target: string): Promise<ChainRelay> {
  let dark = false;
  const server: Server = createServer(
    (req, res) =>
      void (async () => {
        if (dark) {
          req.socket.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        try {
          const answer = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.concat(chunks) });
          res.writeHead(answer.status, { "content-type": "application/json" });
          res.end(Buffer.from(await answer.arrayBuffer()));
        } catch {
          req.socket.destroy();
        }
      })(),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    down: () => {
      dark = true;
      server.closeAllConnections();
    },
    up: () => {
      dark = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface LoanStack {
  api: TestApi;
  anvil: Anvil;
  relay: ChainRelay;
  deployment: Deployment;
  chain: PublicClient;
  /** The loan jobs, stopped: each suite runs them when it means to. */
  lifecycle: LoanLifecycle;
  /** The API's services as its composition root built them (origination, the loan watcher, ...). */
  services: Services;
  /** The indexer over the API's database, when asked for: it is what makes loans active, completed or defaulted. */
  indexer: Indexer | null;
  /** Direct JSON-RPC to anvil (time travel, mining), never through the relay. */
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * A private anvil with the contracts deployed into the API's data folder, the API talking to it through a relay;
 * with `indexer`, an indexer follows anvil directly into the API's database (suites that start and stop their
 * own leave it out). `rateLimits` replaces the harness's relaxed ones, for a suite that tests a real limit.
 */
export async function startLoanStack(options: { indexer?: boolean; rateLimits?: Partial<RateLimits> } = {}): Promise<LoanStack> {
  ensureCompiled();
  const anvil = await startAnvil();
  const relay = await startRelay(anvil.rpcUrl);
  const api = await startTestApi({ rpcUrl: relay.url, rateLimits: options.rateLimits });
  const deployment = await deployAll({ rpcUrl: anvil.rpcUrl, dataDir: api.config.dataDir });
  const chain = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl), cacheTime: 0 }) as PublicClient;
  const { services } = api.server;
  const lifecycle = services.loanLifecycle;
  lifecycle.stop();
  const indexer = options.indexer ? startIndexer({ db: api.database.db, rpcUrl: anvil.rpcUrl, deployment, pollIntervalMs: 50 }) : null;
  return {
    api,
    anvil,
    relay,
    deployment,
    chain,
    lifecycle,
    services,
    indexer,
    rpc: (method, params = []) => chain.request({ method: method as never, params: params as never }),
    async close() {
      await indexer?.stop();
      await api.close();
      await relay.close();
      await anvil.stop();
    },
  };
}

export interface TestUser {
  token: string;
  id: string;
  email: string;
  row: UserRow;
  /** The verified wallet's key, when the user has one. */
  wallet?: PrivateKeyAccount;
}

/**
 * A registered user; admin role, KYC status and a verified wallet are set in the database, since their own
 * flows (invite codes, SIWE) are tested by the accounts suites.
 */
export async function makeUser(api: TestApi, options: { admin?: boolean; kyc?: KycStatus; wallet?: boolean; firstName?: string } = {}): Promise<TestUser> {
  const registration = newRegistration(options.firstName ? { firstName: options.firstName } : {});
  const answer = await api.call("POST", "/auth/register", { body: registration });
  if (answer.status !== 201) throw new Error(`register: ${answer.status} ${answer.body?.message}`);
  const id = answer.body.data.user._id as string;
  const wallet = options.wallet ? privateKeyToAccount(generatePrivateKey()) : undefined;
  const [row] = await api.database.db
    .update(users)
    .set({ role: options.admin ? "admin" : "user", kycStatus: options.kyc ?? "none", walletAddress: wallet ? wallet.address.toLowerCase() : null })
    .where(eq(users.id, id))
    .returning();
  return { token: answer.body.data.token, id, email: registration.email, row, wallet };
}

/** `user` asks the API for an order's typed data (`request`: kind, token id, price terms), signs it with their wallet and publishes it; answers the order's hash and the signature. */
export async function publishOrder(api: TestApi, user: TestUser, request: Record<string, unknown>): Promise<{ hash: string; signature: Hex }> {
  const asked = await api.call("POST", "/orders/typed-data", { token: user.token, body: request });
  if (asked.status !== 200) throw new Error(`typed data: ${asked.status} ${asked.body?.message}`);
  const typed = asked.body.data.typedData;
  const message = Object.fromEntries(Object.entries(typed.message).map(([k, v]) => [k, /^0x/.test(v as string) ? v : BigInt(v as string)]));
  const signature = await user.wallet!.signTypedData({ domain: typed.domain, types: typed.types, primaryType: typed.primaryType, message } as never);
  const published = await api.call("POST", "/orders", { token: user.token, body: { kind: request.kind, message: typed.message, signature } });
  if (published.status !== 201) throw new Error(`publish: ${published.status} ${published.body?.message}`);
  return { hash: published.body.data.hash, signature };
}

export async function notificationsOf(api: TestApi, userId: string) {
  return api.database.db.select().from(notifications).where(eq(notifications.userId, userId));
}

/** Gas and test dollars for a fresh wallet, from the deployer (anvil's funded dev account #0). */
export async function fund(stack: LoanStack, to: Address, dollars: bigint): Promise<void> {
  const { testDollarAbi } = await import("#domain/abis");
  const { DEV_ACCOUNTS } = await import("#domain/devAccounts");
  const deployer = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.deployer), chain: foundry, transport: http(stack.anvil.rpcUrl) });
  await stack.rpc("anvil_setBalance", [to, "0x56BC75E2D63100000"]);
  if (dollars > 0n) {
    const hash = await deployer.writeContract({ address: stack.deployment.contracts.stablecoin as Address, abi: testDollarAbi, functionName: "mint", args: [to, dollars] });
    await stack.chain.waitForTransactionReceipt({ hash });
  }
}

export async function sendAs(stack: LoanStack, account: PrivateKeyAccount, call: { to: string; data: string }): Promise<Hex> {
  const wallet = createWalletClient({ account, chain: foundry, transport: http(stack.anvil.rpcUrl) });
  // Headroom over the estimate, as wallets give (see testing/chain.ts send).
  const estimate = await stack.chain.estimateGas({ account, to: call.to as Address, data: call.data as Hex });
  const hash = await wallet.sendTransaction({ to: call.to as Address, data: call.data as Hex, gas: estimate + estimate / 4n });
  const receipt = await stack.chain.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error("transaction reverted");
  return hash;
}

/**
 * Lists a note on the marketplace contract directly (the on-chain listing, beside the API's signed ones): lets the
 * marketplace move the holder's notes, then `list`, or `updatePrice` when `reprice`.
 */
export async function listOnChain(stack: LoanStack, account: PrivateKeyAccount, tokenId: bigint | string, price: bigint, reprice = false): Promise<Hex> {
  const marketplace = stack.deployment.contracts.marketplace as Address;
  await sendAs(stack, account, { to: stack.deployment.contracts.loanNote, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "setApprovalForAll", args: [marketplace, true] }) });
  const args = [BigInt(tokenId), price] as const;
  const data = reprice ? encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "updatePrice", args }) : encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "list", args });
  return sendAs(stack, account, { to: marketplace, data });
}

/**
 * What a par order on the note costs at the chain's clock, as the contract prices its fill: `parBps` of the
 * outstanding principal plus the interest accrued and unpaid (the dirty price), read from LoanNote.noteStateOf.
 * A note is never sold at its bare principal: even on its first day it carries a day's interest.
 */
export async function parPriceNow(stack: LoanStack, tokenId: bigint | string, parBps: bigint = PAR_BPS): Promise<bigint> {
  const state = await stack.chain.readContract({ address: stack.deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "noteStateOf", args: [BigInt(tokenId)] });
  return parPrice({ principal: state.outstanding, interest: state.interest }, parBps);
}

/**
 * The borrower's `account` pays what is past due on the note (LoanNote.pastDueOf), straight to the contract, so the
 * note is current again: a late note fills no order that did not accept it. Returns the repayment's hash, or null
 * when nothing was past due.
 */
export async function payPastDue(stack: LoanStack, account: PrivateKeyAccount, tokenId: bigint | string): Promise<Hex | null> {
  const { testDollarAbi } = await import("#domain/abis");
  const loanNote = stack.deployment.contracts.loanNote as Address;
  const [, , amountPastDue] = await stack.chain.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "pastDueOf", args: [BigInt(tokenId)] });
  if (amountPastDue === 0n) return null;
  await sendAs(stack, account, { to: stack.deployment.contracts.stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [loanNote, amountPastDue] }) });
  return sendAs(stack, account, { to: loanNote, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "repay", args: [BigInt(tokenId), amountPastDue] }) });
}

export const validRequest = { amount: "5000", purpose: "business", interestRate: 8.5, termMonths: 12 };

/**
 * `user` buys note `tokenId` through the API's buy route at `price` (the USD the buyer saw): asks for the permit, signs
 * it with their wallet, asks again with the signature and sends the one transaction the route answers.
 */
export async function buyByPermit(stack: LoanStack, user: TestUser, tokenId: bigint | string, price: string): Promise<Hex> {
  const ask = (body: Record<string, unknown>) => stack.api.call("POST", `/nfts/${tokenId}/buy`, { token: user.token, body });
  const first = await ask({ expectedPrice: price });
  if (first.status !== 200) throw new Error(`buy: ${first.status} ${first.body?.message}`);
  const { permit, deadline } = first.body.data;
  const signature = await user.wallet!.signTypedData({
    domain: permit.domain,
    types: permit.types,
    primaryType: "Permit",
    message: { ...permit.message, value: BigInt(permit.message.value), nonce: BigInt(permit.message.nonce), deadline: BigInt(permit.message.deadline) },
  });
  const second = await ask({ expectedPrice: price, signature, deadline });
  if (second.status !== 200) throw new Error(`buy with permit: ${second.status} ${second.body?.message}`);
  return sendAs(stack, user.wallet!, second.body.data.call);
}
