import type { Abi } from "viem";
import { collateralEscrowAbi, loanNoteAbi, noteMarketplaceAbi, noteVaultAbi } from "#domain/abis";
import type { Deployment } from "#domain/deployment";
import type { Handler, Handlers } from "./context";
import { COLLECTION, ESCROW } from "./entities";
import { collateralHandlers } from "./handlers/collateral";
import { collectionHandlers, erc721TransferAbi } from "./handlers/collection";
import { loanNoteHandlers } from "./handlers/loanNote";
import { marketplaceHandlers } from "./handlers/marketplace";
import { vaultHandlers } from "./handlers/vault";

export interface IndexedContract {
  name: string;
  address: string;
  abi: Abi;
  /** By event name; the decoder hands each one an event of that name. */
  handlers: Partial<Record<string, Handler>>;
}

/**
 * One followed contract. Its handlers are typed by its ABI; the dispatcher sees them by name only, which is
 * sound because the decoder builds each event's args from this same ABI.
 */
function indexed<const abi extends Abi>(name: string, address: string, abi: abi, handlers: Handlers<abi>): IndexedContract {
  return { name, address: address.toLowerCase(), abi, handlers: handlers as IndexedContract["handlers"] };
}

/** What the indexer follows (Ponder-style): each contract's address, ABI and handlers, from the deploy block. */
export function indexedContracts(deployment: Deployment): IndexedContract[] {
  return [
    indexed("LoanNote", deployment.contracts.loanNote, loanNoteAbi, loanNoteHandlers),
    indexed("NoteMarketplace", deployment.contracts.marketplace, noteMarketplaceAbi, marketplaceHandlers),
    indexed("NoteVault", deployment.contracts.vault, noteVaultAbi, vaultHandlers),
    indexed(ESCROW, deployment.contracts.collateralEscrow, collateralEscrowAbi, collateralHandlers),
  ];
}

/**
 * A pledgeable ERC-721 collection the escrow allowed (indexer/collections.ts follows it from its CollectionAllowed on):
 * only its Transfer is decoded. The demo collection of the local chain is one like any other, not a fixed contract.
 */
export function collectionContract(address: string): IndexedContract {
  return indexed(COLLECTION, address, erc721TransferAbi, collectionHandlers);
}

/**
 * What the mirror holds: rows derived from the logs of these contracts, by this version of the handlers. Bumped
 * when the mirror starts following something it did not (v2: the allow-list, escrow and pieces' owners of NFT collateral),
 * so a mirror built before is rebuilt from the deploy block rather than missing what its past blocks held.
 */
const MIRROR_VERSION = "v2";

/** A different value means a different deployment (or mirror version), whose mirror must be rebuilt from scratch. */
export function deploymentKey(deployment: Deployment): string {
  const { loanNote, marketplace, vault, stablecoin } = deployment.contracts;
  return [deployment.deployBlock, loanNote, marketplace, vault, stablecoin, MIRROR_VERSION].join(":").toLowerCase();
}
