import type { Abi } from "viem";
import { loanNoteAbi, noteMarketplaceAbi, noteVaultAbi } from "#domain/abis";
import type { Deployment } from "#domain/deployment";
import type { Handlers } from "./context";
import { loanNoteHandlers } from "./handlers/loanNote";
import { marketplaceHandlers } from "./handlers/marketplace";
import { vaultHandlers } from "./handlers/vault";

export interface IndexedContract {
  name: string;
  address: string;
  abi: Abi;
  handlers: Handlers;
}

/** What the indexer follows (Ponder-style): each contract's address, ABI and handlers, from the deploy block. */
export function indexedContracts(deployment: Deployment): IndexedContract[] {
  return [
    { name: "LoanNote", address: deployment.contracts.loanNote, abi: loanNoteAbi as Abi, handlers: loanNoteHandlers },
    { name: "NoteMarketplace", address: deployment.contracts.marketplace, abi: noteMarketplaceAbi as Abi, handlers: marketplaceHandlers },
    { name: "NoteVault", address: deployment.contracts.vault, abi: noteVaultAbi as Abi, handlers: vaultHandlers },
  ].map((contract) => ({ ...contract, address: contract.address.toLowerCase() }));
}

/** A different value means a different deployment, whose mirror must be rebuilt from scratch. */
export function deploymentKey(deployment: Deployment): string {
  const { loanNote, marketplace, vault, stablecoin } = deployment.contracts;
  return [deployment.deployBlock, loanNote, marketplace, vault, stablecoin].join(":").toLowerCase();
}
