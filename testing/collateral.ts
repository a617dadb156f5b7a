import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createWalletClient, http, zeroAddress, type Abi, type Address, type Hex, type WalletClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { collateralEscrowAbi, demoCollectionAbi, loanNoteAbi } from "#domain/abis";
import { DEV_ACCOUNTS, FREE_DEV_KEYS } from "#domain/devAccounts";
import type { TestChain } from "./chain";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The compiled test-only collection that can refuse transfers (contracts/test-only/HostileCollection.sol). */
function hostileArtifact(): { abi: Abi; bytecode: Hex } {
  return JSON.parse(readFileSync(join(root, "artifacts", "contracts", "test-only", "HostileCollection.sol", "HostileCollection.json"), "utf8"));
}

/** NFT collateral's on-chain moves on a test chain: collections, pieces, pledges and claims. */
export interface CollateralMoves {
  /** The deployment's demo collection (allowed by the deploy; pieces 1-3 held by the borrower). */
  demo: Address;
  /** A new DemoCollection whose minter is the deployer, not allowed. */
  deployCollection(): Promise<Address>;
  /** A new HostileCollection (not allowed); `refuseFrom` makes it revert every transfer out of an address. */
  deployHostile(): Promise<Address>;
  refuseFrom(hostile: Address, from: Address): Promise<Hex>;
  /** Mints the next piece of a DemoCollection (or piece `id` of a hostile one) to `to`. */
  mint(collection: Address, to: Address, id?: bigint): Promise<Hex>;
  transferPiece(collection: Address, from: Address, to: Address, id: bigint): Promise<Hex>;
  allow(collection: Address): Promise<Hex>;
  disallow(collection: Address): Promise<Hex>;
  /** The borrower approves the escrow for all pieces of `collection` and the originator originates a secured note. */
  originateSecured(tokenId: bigint, collection: Address, collateralId: bigint, principal?: bigint): Promise<Hex>;
  /** `caller` takes the escrowed piece of note `tokenId` to `to` (a claim after a default, or a pull after a refused return). */
  claim(tokenId: bigint, caller: Address, to?: Address): Promise<Hex>;
}

export function collateralMoves(chain: TestChain): CollateralMoves {
  const transport = http(chain.rpcUrl);
  const wallets = new Map<string, WalletClient>();
  for (const key of [DEV_ACCOUNTS.deployer, DEV_ACCOUNTS.originator, DEV_ACCOUNTS.treasury, DEV_ACCOUNTS.demoBorrower, DEV_ACCOUNTS.demoInvestor, FREE_DEV_KEYS[0]]) {
    const account = privateKeyToAccount(key);
    wallets.set(account.address.toLowerCase(), createWalletClient({ account, transport }));
  }
  const deployer = privateKeyToAccount(DEV_ACCOUNTS.deployer).address;
  const { loanNote, collateralEscrow: escrow, demoCollection } = chain.deployment.contracts as Record<string, Address>;
  if (!demoCollection) throw new Error("the test chain's deployment has no demo collection");
  const hostiles = new Set<string>();
  const wallet = (from: Address) => {
    const found = wallets.get(from.toLowerCase());
    if (!found) throw new Error(`no key for ${from}`);
    return found;
  };
  const approvedEscrow = new Set<string>();

  async function send(from: Address, to: Address, abi: Abi, functionName: string, args: unknown[]): Promise<Hex> {
    const client = wallet(from);
    const hash = await client.writeContract({ address: to, abi, functionName, args, chain: null, account: client.account! });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success") throw new Error(`${functionName} reverted (${hash})`);
    return hash;
  }
  async function deploy(abi: Abi, bytecode: Hex, args: unknown[]): Promise<Address> {
    const client = wallet(deployer);
    const hash = await client.deployContract({ abi, bytecode, args, chain: null, account: client.account! });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`deploying failed (${hash})`);
    return receipt.contractAddress;
  }
  const collectionAbi = (collection: Address) => (hostiles.has(collection.toLowerCase()) ? hostileArtifact().abi : (demoCollectionAbi as Abi));

  return {
    demo: demoCollection,
    async deployCollection() {
      const { abi, bytecode } = JSON.parse(readFileSync(join(root, "artifacts", "contracts", "DemoCollection.sol", "DemoCollection.json"), "utf8"));
      return deploy(abi, bytecode, [deployer, 86_400n]);
    },
    async deployHostile() {
      const { abi, bytecode } = hostileArtifact();
      const address = await deploy(abi, bytecode, []);
      hostiles.add(address.toLowerCase());
      return address;
    },
    refuseFrom: (hostile, from) => send(deployer, hostile, hostileArtifact().abi, "setModes", [from, false, false, zeroAddress]),
    mint: (collection, to, id) =>
      hostiles.has(collection.toLowerCase()) ? send(deployer, collection, hostileArtifact().abi, "mint", [to, id]) : send(deployer, collection, demoCollectionAbi as Abi, "mint", [to]),
    transferPiece: (collection, from, to, id) => send(from, collection, collectionAbi(collection), "transferFrom", [from, to, id]),
    allow: (collection) => send(deployer, escrow, collateralEscrowAbi as Abi, "allowCollection", [collection]),
    disallow: (collection) => send(deployer, escrow, collateralEscrowAbi as Abi, "disallowCollection", [collection]),
    async originateSecured(tokenId, collection, collateralId, principal = 1_000_000_000n) {
      const { borrower, originator } = chain.actors;
      if (!approvedEscrow.has(collection.toLowerCase())) {
        await send(borrower, collection, collectionAbi(collection), "setApprovalForAll", [escrow, true]);
        approvedEscrow.add(collection.toLowerCase());
      }
      return send(originator, loanNote, loanNoteAbi as Abi, "originateWithCollateral", [tokenId, borrower, principal, 1200, 12, collection, collateralId]);
    },
    claim: (tokenId, caller, to = caller) => send(caller, escrow, collateralEscrowAbi as Abi, "claimCollateral", [tokenId, to]),
  };
}
