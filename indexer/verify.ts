import { asc, eq } from "drizzle-orm";
import { erc721Abi, type Address, type Hex, type PublicClient } from "viem";
import type { Db } from "#db/connect";
import {
  chainCollateral,
  chainCollections,
  chainCreditWithdrawals,
  chainCredits,
  chainLateFeePayments,
  chainListings,
  chainNftOwners,
  chainNotes,
  chainOrderCancellations,
  chainOrderCounters,
  chainOrderFills,
  chainRepayments,
  chainSales,
  chainTransfers,
  chainVaultMoves,
  chainVaultPositions,
} from "#db/schema/chain";
import { collateralEscrowAbi, loanNoteAbi, noteMarketplaceAbi, noteVaultAbi } from "#domain/abis";
import type { Deployment } from "#domain/deployment";
import { REFINANCED_ID_OFFSET } from "#domain/noteIds";

const MIRROR_TABLES = {
  notes: chainNotes,
  listings: chainListings,
  sales: chainSales,
  repayments: chainRepayments,
  lateFeePayments: chainLateFeePayments,
  credits: chainCredits,
  creditWithdrawals: chainCreditWithdrawals,
  vaultPositions: chainVaultPositions,
  vaultMoves: chainVaultMoves,
  transfers: chainTransfers,
  orderFills: chainOrderFills,
  orderCancellations: chainOrderCancellations,
  orderCounters: chainOrderCounters,
  collections: chainCollections,
  collateral: chainCollateral,
  nftOwners: chainNftOwners,
} as const;

/** Every mirror row of one chain in a stable order, as plain comparable values. */
export async function mirrorSnapshot(db: Db, chainId: number): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [name, table] of Object.entries(MIRROR_TABLES)) {
    const columns = table as unknown as Record<string, never>;
    const keys = ["collection", "tokenId", "signer", "account"].filter((name) => name in columns).map((name) => asc(columns[name]));
    const order = "txHash" in columns ? [asc(columns.blockNumber), asc(columns.logIndex)] : keys;
    const rows = await db
      .select()
      .from(table as never)
      .where(eq(columns.chainId, chainId))
      .orderBy(...order);
    out[name] = (rows as Record<string, unknown>[]).map((row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "bigint" ? v.toString() : v instanceof Date ? v.toISOString() : v])),
    );
  }
  return out;
}

const STATUS = ["none", "active", "repaid", "defaulted"] as const;

/**
 * Compares the mirror with the contracts' own views: each note's owner, status and amount repaid, each live
 * listing, each vault position and each account's unwithdrawn credits. Answers the differences found.
 */
export async function compareWithChain(db: Db, client: PublicClient, deployment: Deployment): Promise<string[]> {
  const differences: string[] = [];
  const loanNote = { address: deployment.contracts.loanNote as Address, abi: loanNoteAbi };
  const marketplace = { address: deployment.contracts.marketplace as Address, abi: noteMarketplaceAbi };
  const vault = { address: deployment.contracts.vault as Address, abi: noteVaultAbi };

  const notes = await db.select().from(chainNotes).where(eq(chainNotes.chainId, deployment.chainId));
  const liveListings = await db.select().from(chainListings).where(eq(chainListings.chainId, deployment.chainId));
  const positions = await db.select().from(chainVaultPositions).where(eq(chainVaultPositions.chainId, deployment.chainId));
  for (const note of notes) {
    const id = note.tokenId;
    const [owner] = await client.readContract({ ...loanNote, functionName: "ownershipOf", args: [id] });
    const loan = await client.readContract({ ...loanNote, functionName: "loanOf", args: [id] });
    if (owner.toLowerCase() !== note.owner) differences.push(`note ${id}: owner ${note.owner} in the mirror, ${owner} on chain`);
    if (loan.repaid !== note.totalRepaid) differences.push(`note ${id}: repaid ${note.totalRepaid} in the mirror, ${loan.repaid} on chain`);
    if (Number(loan.feesPaidThrough) !== note.feesPaidThrough) differences.push(`note ${id}: fees paid through ${note.feesPaidThrough} in the mirror, ${loan.feesPaidThrough} on chain`);
    if (STATUS[loan.status] !== note.status) differences.push(`note ${id}: status ${note.status} in the mirror, ${STATUS[loan.status]} on chain`);
    if (loan.principal !== note.principal) differences.push(`note ${id}: principal ${note.principal} in the mirror, ${loan.principal} on chain`);
    if (note.status === "active") {
      const borrower = (await client.readContract({ ...loanNote, functionName: "borrowerOf", args: [id] })).toLowerCase();
      if (borrower !== note.borrower) differences.push(`note ${id}: borrower ${note.borrower} in the mirror, ${borrower} on chain`);
    }
    // A note at or above the offset is mirrored only from a refinance: the chain must name the note it replaced.
    const replaced = await client.readContract({ ...marketplace, functionName: "refinancedFrom", args: [id] });
    const mirroredFrom = id >= REFINANCED_ID_OFFSET ? id - REFINANCED_ID_OFFSET : 0n;
    if (replaced !== mirroredFrom) differences.push(`note ${id}: refinanced from ${mirroredFrom} in the mirror, ${replaced} on chain`);
    const [seller, price] = await client.readContract({ ...marketplace, functionName: "listingOf", args: [id] });
    const active = liveListings.filter((listing) => listing.tokenId === id && listing.status === "active");
    const onChain = seller !== "0x0000000000000000000000000000000000000000";
    if (active.length > 1) differences.push(`note ${id}: ${active.length} active listings in the mirror`);
    if (onChain !== (active.length === 1)) differences.push(`note ${id}: listed ${active.length === 1} in the mirror, ${onChain} on chain`);
    if (onChain && active[0] && (active[0].seller !== seller.toLowerCase() || active[0].price !== price)) {
      differences.push(`note ${id}: listing ${active[0].seller}@${active[0].price} in the mirror, ${seller}@${price} on chain`);
    }
    const depositor = (await client.readContract({ ...vault, functionName: "depositorOf", args: [id] })).toLowerCase();
    const position = positions.find((p) => p.tokenId === id && p.active);
    const expected = note.burned ? null : depositor === "0x0000000000000000000000000000000000000000" ? null : depositor;
    if ((position?.depositor ?? null) !== expected) differences.push(`note ${id}: depositor ${position?.depositor ?? "none"} in the mirror, ${depositor} on chain`);
  }
  const credits = await db.select().from(chainCredits).where(eq(chainCredits.chainId, deployment.chainId));
  for (const credit of credits) {
    const balance = await client.readContract({ ...loanNote, functionName: "creditsOf", args: [credit.account as Address] });
    if (balance !== credit.credited - credit.withdrawn) {
      differences.push(`credits of ${credit.account}: ${credit.credited - credit.withdrawn} in the mirror, ${balance} on chain`);
    }
  }
  const counters = await db.select().from(chainOrderCounters).where(eq(chainOrderCounters.chainId, deployment.chainId));
  for (const row of counters) {
    const counter = await client.readContract({ ...marketplace, functionName: "counterOf", args: [row.signer as Address] });
    if (counter !== row.counter) differences.push(`counter of ${row.signer}: ${row.counter} in the mirror, ${counter} on chain`);
  }
  differences.push(...(await compareCollateralWithChain(db, client, deployment)));
  return differences;
}

const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * The allow-list, the escrow and the pieces' owners against the contracts: each mirrored collection's isCollectionAllowed,
 * each pledge's collateralOf (in escrow while locked or returnFailed, nothing once returned or claimed), each mirrored
 * piece's ownerOf. Answers the differences found.
 */
export async function compareCollateralWithChain(db: Db, client: PublicClient, deployment: Deployment): Promise<string[]> {
  const differences: string[] = [];
  const escrow = { address: deployment.contracts.collateralEscrow as Address, abi: collateralEscrowAbi };
  const chainId = deployment.chainId;
  for (const row of await db.select().from(chainCollections).where(eq(chainCollections.chainId, chainId))) {
    const allowed = await client.readContract({ ...escrow, functionName: "isCollectionAllowed", args: [row.collection as Address] });
    if (allowed !== row.allowed) differences.push(`collection ${row.collection}: allowed ${row.allowed} in the mirror, ${allowed} on chain`);
  }
  for (const row of await db.select().from(chainCollateral).where(eq(chainCollateral.chainId, chainId))) {
    const [collection, collateralId, borrower] = await client.readContract({ ...escrow, functionName: "collateralOf", args: [row.tokenId] });
    const held = row.state === "locked" || row.state === "returnFailed";
    const expected = held ? [row.collection, row.collateralId, row.borrower] : [ZERO, 0n, ZERO];
    const actual = [collection.toLowerCase(), collateralId, borrower.toLowerCase()];
    if (expected.some((value, i) => value !== actual[i])) differences.push(`pledge of note ${row.tokenId}: ${row.state} ${expected.join("/")} in the mirror, ${actual.join("/")} on chain`);
  }
  for (const row of await db.select().from(chainNftOwners).where(eq(chainNftOwners.chainId, chainId))) {
    const owner = await client.readContract({ address: row.collection as Address, abi: erc721Abi, functionName: "ownerOf", args: [row.tokenId] }).then(
      (address) => address.toLowerCase(),
      () => ZERO,
    ); // a burned piece has no owner
    if (owner !== row.owner) differences.push(`piece ${row.tokenId} of ${row.collection}: owner ${row.owner} in the mirror, ${owner} on chain`);
  }
  return differences;
}

/** A signed order as whoever signed it knows it: the mirror's logs name only its hash. */
export interface KnownOrder {
  signer: string;
  hash: string;
  kind: "listing" | "offer" | "matchingOffer";
  parBps: bigint;
}

/**
 * Compares what the mirror's fills, cancellations and counters say of each order with the contract's orderStatus and
 * counterOf: cancelled, or a par listing or offer filled, reads as used; a matching offer not cancelled has spent the
 * sum of its fills; a fixed-price order's fill marks nothing (its own fill moved the note). Answers the differences.
 */
export async function compareOrdersWithChain(db: Db, client: PublicClient, deployment: Deployment, orders: KnownOrder[]): Promise<string[]> {
  const differences: string[] = [];
  const marketplace = { address: deployment.contracts.marketplace as Address, abi: noteMarketplaceAbi };
  const fills = await db.select().from(chainOrderFills).where(eq(chainOrderFills.chainId, deployment.chainId));
  const cancellations = await db.select().from(chainOrderCancellations).where(eq(chainOrderCancellations.chainId, deployment.chainId));
  const counters = await db.select().from(chainOrderCounters).where(eq(chainOrderCounters.chainId, deployment.chainId));
  for (const order of orders) {
    const signer = order.signer.toLowerCase();
    const hash = order.hash.toLowerCase();
    const filled = fills.filter((fill) => fill.orderHash === hash);
    const cancelled = cancellations.some((c) => c.signer === signer && c.orderHash === hash);
    const used = cancelled || (order.kind !== "matchingOffer" && order.parBps > 0n && filled.length > 0);
    const spent = used || order.kind !== "matchingOffer" ? 0n : filled.reduce((sum, fill) => sum + fill.price, 0n);
    const [usedOnChain, spentOnChain] = await client.readContract({ ...marketplace, functionName: "orderStatus", args: [signer as Address, hash as Hex] });
    if (used !== usedOnChain || spent !== spentOnChain) {
      differences.push(`order ${hash} of ${signer}: used ${used}, filled ${spent} in the mirror; used ${usedOnChain}, filled ${spentOnChain} on chain`);
    }
    const mirrored = counters.find((row) => row.signer === signer)?.counter ?? 0n;
    const counter = await client.readContract({ ...marketplace, functionName: "counterOf", args: [signer as Address] });
    if (mirrored !== counter) differences.push(`counter of ${signer}: ${mirrored} in the mirror, ${counter} on chain`);
  }
  return differences;
}
