import { BaseError, decodeFunctionResult, encodeFunctionData, zeroAddress, type Address, type Hex, type PublicClient } from "viem";

/** IERC721Receiver.onERC721Received.selector: what a contract must answer to be sent a note with safeTransferFrom. */
export const ERC721_RECEIVED = "0x150b7a02";

const receiverAbi = [
  {
    type: "function",
    name: "onERC721Received",
    stateMutability: "nonpayable",
    inputs: [
      { name: "operator", type: "address" },
      { name: "from", type: "address" },
      { name: "tokenId", type: "uint256" },
      { name: "data", type: "bytes" },
    ],
    outputs: [{ name: "", type: "bytes4" }],
  },
] as const;

export interface ReceiverQuestion {
  buyer: Address;
  loanNote: Address;
  marketplace: Address;
  /** Who the note would come from; the zero address when not known yet (a matching offer). */
  holder?: Address;
  /** Any id will do when the note is not known yet (a matching offer). */
  tokenId?: bigint;
}

/**
 * Whether `buyer` can be sent a note: a fill ends in LoanNote's safeTransferFrom to the buyer, which reverts unless a
 * contract buyer answers onERC721Received with its selector, so an offer from any other contract could never fill.
 * Asks the buyer as the note contract would (from LoanNote, operator the marketplace); an account without code
 * always can. A node that cannot be asked throws, for the caller to tell apart from a "no".
 */
export async function canReceiveNotes(client: PublicClient, q: ReceiverQuestion): Promise<boolean> {
  const code = await client.getCode({ address: q.buyer });
  if (!code || code === "0x") return true;
  const data = encodeFunctionData({ abi: receiverAbi, functionName: "onERC721Received", args: [q.marketplace, q.holder ?? zeroAddress, q.tokenId ?? 0n, "0x"] });
  try {
    const answer = await client.call({ account: q.loanNote, to: q.buyer, data });
    return selectorOf(answer.data) === ERC721_RECEIVED;
  } catch (error) {
    // A revert (no such function and no fallback) is a "no"; anything else is the node's trouble, not the buyer's.
    if (error instanceof BaseError && /revert/i.test(error.message)) return false;
    throw error;
  }
}

/** The bytes4 an answer decodes to, or null when it is not one (no data, or too short). */
function selectorOf(data: Hex | undefined): string | null {
  if (!data || data === "0x") return null;
  try {
    return decodeFunctionResult({ abi: receiverAbi, functionName: "onERC721Received", data }).toLowerCase();
  } catch {
    return null;
  }
}
