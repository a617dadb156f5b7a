import { encodeFunctionData, type Address, type PublicClient } from "viem";
import { loanNoteAbi } from "#domain/abis";
import type { WalletCall } from "../wallet/walletCall";

/** What the wallet is asked to send, in words, when the marketplace may not move the holder's notes yet. */
export const NOTE_APPROVAL_STEP = "Confirm in your wallet: let the marketplace move your notes when you sell one (one transaction, once for all your notes)…";

/**
 * A signed listing or an accepted offer moves the note by the marketplace, so its holder must have approved the
 * marketplace for their notes (`setApprovalForAll`) once; the call to send when they have not, else null.
 */
export async function noteApprovalCall(client: PublicClient, config: { chainId: number; contracts: { loanNote: string; marketplace: string } }, owner: Address): Promise<WalletCall | null> {
  const loanNote = config.contracts.loanNote as Address;
  const marketplace = config.contracts.marketplace as Address;
  const approved = await client.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "isApprovedForAll", args: [owner, marketplace] });
  if (approved) return null;
  return { to: loanNote, data: encodeFunctionData({ abi: loanNoteAbi, functionName: "setApprovalForAll", args: [marketplace, true] }), value: "0", chainId: config.chainId };
}
