import { useAccount, usePublicClient, useSendTransaction, useSignTypedData, useSwitchChain } from "wagmi";
import type { Hash, Hex, TransactionReceipt } from "viem";
import { useRuntimeConfig } from "../config";
import { shortAddress } from "../format";
import { useSession } from "../session";
import { revertedTransactionError, WalletStepError } from "./txError";
import type { PermitRequest, WalletCall } from "./walletCall";
import { walletTypedData } from "../orders/orderCalls";

/** EIP-712 typed data of a signed order as the API answers it (domain/wire/order's OrderTypedData). */
export interface OrderTypedDataRequest {
  domain: { name: string; version: string; chainId: number; verifyingContract: string };
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, string>;
}

export interface WalletSenderOptions {
  /** Notes move only from the user's verified wallet; repayment may come from any wallet. */
  requireVerifiedWallet: boolean;
  /** Runs after each successful receipt, e.g. to wait until the API's chain mirror has indexed its block. */
  afterReceipt?: (receipt: TransactionReceipt) => Promise<unknown>;
}

/**
 * Sends what the API answered from the connected wallet: checks the account (the verified one when required) and
 * the configured chain, signs permits (eth_signTypedData_v4) and sends calls, waiting for each receipt.
 */
export function useWalletSender({ requireVerifiedWallet, afterReceipt }: WalletSenderOptions) {
  const { address, isConnected, chainId } = useAccount();
  const { switchChainAsync } = useSwitchChain();
  const { signTypedDataAsync } = useSignTypedData();
  const { sendTransactionAsync } = useSendTransaction();
  const client = usePublicClient();
  const verified = useSession((s) => s.user?.walletAddress?.toLowerCase() ?? null);
  const config = useRuntimeConfig().data;

  const mismatch = Boolean(isConnected && address && verified && address.toLowerCase() !== verified);

  async function ready(): Promise<`0x${string}`> {
    if (requireVerifiedWallet && !verified) throw new WalletStepError("Link and verify a wallet in your profile first");
    if (!isConnected || !address) throw new WalletStepError("Connect your wallet first");
    if (requireVerifiedWallet && verified && address.toLowerCase() !== verified) throw new WalletStepError(`Switch your wallet to your verified address ${shortAddress(verified)}`);
    if (config && chainId !== config.chainId) {
      await switchChainAsync({ chainId: config.chainId }).catch(() => {
        throw new WalletStepError(`Failed to switch to network ${config.chainId}`);
      });
    }
    return address;
  }

  async function send(call: WalletCall): Promise<Hash> {
    const account = await ready();
    const hash = await sendTransactionAsync({ account, to: call.to, data: call.data, value: BigInt(call.value || "0"), chainId: call.chainId });
    const receipt = await client!.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw await revertedTransactionError(client!, receipt);
    if (afterReceipt) await afterReceipt(receipt);
    return hash;
  }

  async function signPermit(permit: PermitRequest): Promise<Hex> {
    const account = await ready();
    const m = permit.message;
    if (m.owner.toLowerCase() !== account.toLowerCase()) throw new WalletStepError(`The permit is for ${shortAddress(m.owner)}, but your wallet is ${shortAddress(account)}`);
    return signTypedDataAsync({
      account,
      domain: permit.domain,
      types: permit.types,
      primaryType: "Permit",
      message: { owner: m.owner, spender: m.spender, value: BigInt(m.value), nonce: BigInt(m.nonce), deadline: BigInt(m.deadline) },
    });
  }

  /**
   * Signs an order's typed data (eth_signTypedData_v4) as the API answered it, uints as decimal strings; refuses
   * one made out for another signer, so the wallet is never asked to sign for someone else.
   */
  async function signOrder(typed: OrderTypedDataRequest): Promise<Hex> {
    const account = await ready();
    const signer = typed.message.seller ?? typed.message.buyer;
    if (!signer || signer.toLowerCase() !== account.toLowerCase()) throw new WalletStepError(`The order is for ${shortAddress(signer)}, but your wallet is ${shortAddress(account)}`);
    return signTypedDataAsync({ account, ...walletTypedData(typed) });
  }

  return { address, isConnected, verified, mismatch, ready, send, signPermit, signOrder };
}
