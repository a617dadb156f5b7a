import { useAccount, usePublicClient, useSendTransaction, useSignTypedData, useSwitchChain } from "wagmi";
import type { Hash, Hex } from "viem";
import { useRuntimeConfig } from "../../../lib/config";
import { shortAddress } from "../../../lib/format";
import { isUserRejection } from "../../../lib/wallet/events";
import type { PermitRequest, WalletCall } from "../api/prepareRepayment";

export class WalletStepError extends Error {
  constructor(message: string, readonly hash?: Hash) {
    super(message);
    this.name = "WalletStepError";
  }
}

export function walletErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof WalletStepError) return error.message;
  if (isUserRejection(error)) return "The request was rejected in your wallet";
  const short = (error as { shortMessage?: string } | null)?.shortMessage;
  return short ? `${fallback}: ${short}` : fallback;
}

/** Repayment may come from any wallet (DESIGN.md): the connected one signs the permit and sends repayWithPermit. */
export function useRepayWallet() {
  const { address, isConnected, chainId } = useAccount();
  const { switchChainAsync } = useSwitchChain();
  const { signTypedDataAsync } = useSignTypedData();
  const { sendTransactionAsync } = useSendTransaction();
  const client = usePublicClient();
  const config = useRuntimeConfig().data;

  async function ready(): Promise<`0x${string}`> {
    if (!isConnected || !address) throw new WalletStepError("Connect your wallet first");
    if (config && chainId !== config.chainId) {
      await switchChainAsync({ chainId: config.chainId }).catch(() => {
        throw new WalletStepError(`Failed to switch to network ${config.chainId}`);
      });
    }
    return address;
  }

  async function signPermit(permit: PermitRequest): Promise<Hex> {
    const account = await ready();
    if (permit.message.owner.toLowerCase() !== account.toLowerCase()) throw new WalletStepError(`The permit is for ${shortAddress(permit.message.owner)}, but your wallet is ${shortAddress(account)}`);
    const m = permit.message;
    return signTypedDataAsync({
      account,
      domain: permit.domain,
      types: permit.types,
      primaryType: "Permit",
      message: { owner: m.owner, spender: m.spender, value: BigInt(m.value), nonce: BigInt(m.nonce), deadline: BigInt(m.deadline) },
    });
  }

  async function send(call: WalletCall): Promise<Hash> {
    const account = await ready();
    const hash = await sendTransactionAsync({ account, to: call.to, data: call.data, value: BigInt(call.value || "0"), chainId: call.chainId });
    const receipt = await client!.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new WalletStepError("The transaction was reverted on-chain", hash);
    return hash;
  }

  return { address, isConnected, ready, signPermit, send };
}
