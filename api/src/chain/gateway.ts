import {
  BaseError,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  keccak256,
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type TypedData,
  type TypedDataDefinition,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { decodeContractError } from "#domain/contractErrors";
import type { Deployment } from "#domain/deployment";
import { chainOf } from "./client";
import type { AppConfig } from "../config/env";
import { readDeployment } from "../config/deployment";

/** Why a chain action did not happen, in a sentence fit for an admin and a system alert. */
export class ChainActionError extends Error {
  constructor(
    message: string,
    /** The contract's custom error name when it reverted (e.g. LoanAlreadyExists). */
    readonly revert: string | null = null,
  ) {
    super(message);
    this.name = "ChainActionError";
  }
}

export type Signer = "originator" | "treasury";

type Writes = "nonpayable" | "payable";

/** One transaction to a contract, typed by its ABI: a function it lacks, or a wrong argument, does not compile. */
export interface SendOptions<abi extends Abi, functionName extends ContractFunctionName<abi, Writes>> {
  signer: Signer;
  address: Address;
  abi: abi;
  functionName: functionName;
  // Also an array for the gateway's own code, which sees the ABI only as an ABI.
  args: ContractFunctionArgs<abi, Writes, functionName> & readonly unknown[];
  /** Called with the hash of the signed transaction before it is broadcast; when it throws, nothing is sent. */
  onSent?: (hash: Hex) => Promise<void>;
}

export interface ChainGateway {
  readonly publicClient: PublicClient;
  deployment(): Promise<Deployment>;
  address(signer: Signer): Address;
  /** Sends one transaction and waits for its receipt (CONFIRMATIONS deep); a revert or an unreachable node throws ChainActionError. */
  send<const abi extends Abi, functionName extends ContractFunctionName<abi, Writes>>(options: SendOptions<abi, functionName>): Promise<TransactionReceipt>;
  /** The latest block's timestamp: the chain's "now", which tests move with evm_increaseTime. */
  now(): Promise<bigint>;
  /** Signs EIP-712 typed data with one of the API's keys, offline (the treasury's signed listings). */
  signTypedData<const types extends TypedData | Record<string, unknown>, primaryType extends string>(signer: Signer, typedData: TypedDataDefinition<types, primaryType>): Promise<Hex>;
}

/** The name of the custom error a contract call reverted with, if it did (decoded against every contract's errors). */
export function revertName(error: unknown): string | null {
  return decodeContractError(error)?.name ?? null;
}

/** A revert reads as the app shows it to users (domain/contractErrors.ts); anything else keeps the node's first line. */
export function describeChainError(error: unknown): ChainActionError {
  if (error instanceof ChainActionError) return error;
  const revert = decodeContractError(error);
  if (revert) return new ChainActionError(revert.sentence, revert.name);
  const short = error instanceof BaseError ? error.shortMessage : error instanceof Error ? error.message : String(error);
  return new ChainActionError(`The chain could not be reached or refused the transaction: ${short.split("\n")[0]}`);
}

/** A call's data; send's signature already checked the name and arguments against the ABI, which viem cannot do generically. */
function calldata(call: { abi: Abi; functionName: string; args: readonly unknown[] }): Hex {
  return encodeFunctionData(call);
}

/**
 * The two accounts whose keys the API holds: the originator, which only
 * originates and marks defaults, and the treasury, which lists, reprices, unlists and withdraws.
 */
export function createChainGateway(config: AppConfig): ChainGateway {
  const chain = chainOf(config);
  const transport = http(config.rpcUrl, { timeout: 10_000, retryCount: 0 });
  const publicClient = createPublicClient({ chain, transport, cacheTime: 0 }) as PublicClient;
  const wallets = new Map<Signer, WalletClient>();
  for (const signer of ["originator", "treasury"] as const) {
    const key = signer === "originator" ? config.originatorKey : config.treasuryKey;
    if (key) wallets.set(signer, createWalletClient({ account: privateKeyToAccount(key), chain, transport }));
  }
  // One transaction at a time per account in this process, so two approvals never race for a nonce.
  const queues = new Map<Signer, Promise<unknown>>();

  function wallet(signer: Signer): WalletClient {
    const client = wallets.get(signer);
    if (!client) throw new ChainActionError(`No ${signer} key is configured (${signer === "originator" ? "ORIGINATOR_KEY" : "TREASURY_KEY"})`);
    return client;
  }

  return {
    publicClient,
    async deployment() {
      const deployment = await readDeployment(config.dataDir, config.chainId);
      if (!deployment) throw new ChainActionError(`The contracts are not deployed on chain ${config.chainId}`);
      return deployment;
    },
    address(signer) {
      return wallet(signer).account!.address;
    },
    async send({ signer, address, abi, functionName, args, onSent }) {
      const client = wallet(signer);
      const data = calldata({ abi, functionName, args });
      const previous = queues.get(signer) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      queues.set(
        signer,
        previous.then(() => mine),
      );
      await previous.catch(() => {});
      let hash: Hex;
      try {
        // The call is simulated first, so a revert is refused here with its reason, before anything is signed.
        await publicClient.call({ account: client.account!, to: address, data });
        const request = await client.prepareTransactionRequest({ account: client.account!, chain, to: address, data });
        const serializedTransaction = await client.signTransaction(request);
        hash = keccak256(serializedTransaction);
        // Recorded before the node hears of it: a chain that mines at once must not let the indexer record the
        // outcome ahead of the record of who sent it, and a record that fails sends nothing.
        await onSent?.(hash);
        await client.sendRawTransaction({ serializedTransaction });
      } catch (error) {
        release();
        throw describeChainError(error);
      }
      release();
      try {
        const receipt = await publicClient.waitForTransactionReceipt({ hash, confirmations: Math.max(1, config.confirmations), pollingInterval: 250, timeout: 120_000 });
        if (receipt.status !== "success") throw new ChainActionError(`The transaction ${hash} reverted`);
        return receipt;
      } catch (error) {
        throw describeChainError(error);
      }
    },
    async now() {
      const block = await publicClient.getBlock({ blockTag: "latest" });
      return block.timestamp;
    },
    async signTypedData(signer, typedData) {
      const client = wallet(signer);
      return client.account!.signTypedData!(typedData as never);
    },
  };
}
