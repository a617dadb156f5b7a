import type { Hash, PublicClient, TransactionReceipt } from "viem";
import { decodeContractError } from "#domain/contractErrors";
import { isUserRejection } from "./events";

/** A step the wallet could not take, worded for a toast. */
export class WalletStepError extends Error {
  constructor(
    message: string,
    readonly hash?: Hash,
  ) {
    super(message);
    this.name = "WalletStepError";
  }
}

/**
 * What every transaction flow of the app shows when a wallet step failed: its own words, the wallet's refusal, or
 * the contract's custom error as a sentence (domain/contractErrors.ts), never a raw revert.
 */
export function walletErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof WalletStepError) return error.message;
  if (isUserRejection(error)) return "The request was rejected in your wallet";
  const revert = decodeContractError(error);
  if (revert) return revert.sentence;
  const short = (error as { shortMessage?: string } | null)?.shortMessage;
  return short ? `${fallback}: ${short}` : fallback;
}

/**
 * The error for a transaction that was mined but reverted: the call replayed on the state its block left tells
 * why (what changed between the wallet's estimate and the block is still there).
 */
export async function revertedTransactionError(client: PublicClient, receipt: TransactionReceipt): Promise<WalletStepError> {
  const tx = await client.getTransaction({ hash: receipt.transactionHash });
  try {
    await client.call({ account: tx.from, to: tx.to, data: tx.input, value: tx.value, blockNumber: receipt.blockNumber });
  } catch (error) {
    const revert = decodeContractError(error);
    if (revert) return new WalletStepError(revert.sentence, receipt.transactionHash);
  }
  return new WalletStepError("The transaction was reverted on-chain", receipt.transactionHash);
}
