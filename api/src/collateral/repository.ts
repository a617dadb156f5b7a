import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chainCollateral, chainCollections, chainNftOwners, loans, nftMetadata, type NftMetadataRow } from "#db/schema";

/** One piece of one collection; addresses lowercase. */
export interface Piece {
  collection: string;
  tokenId: bigint;
}

export const pieceKey = (piece: Piece) => `${piece.collection.toLowerCase()}:${piece.tokenId}`;

/** The most pieces the wizard's picker lists for one wallet. */
export const MAX_WALLET_PIECES = 200;

/**
 * Reads of the indexer's allow-list, owner and escrow mirror (chain_collections, chain_nft_owners, chain_collateral)
 * and the API's own metadata cache (nft_metadata). The mirror is a list to pick from: decisions that move a piece
 * are checked live by the service.
 */
export function createCollateralRepository(db: Db, chainId: number) {
  return {
    async allowedCollections(): Promise<string[]> {
      const rows = await db
        .select({ collection: chainCollections.collection })
        .from(chainCollections)
        .where(and(eq(chainCollections.chainId, chainId), eq(chainCollections.allowed, true)))
        .orderBy(asc(chainCollections.slot));
      return rows.map((r) => r.collection);
    },

    async isAllowed(collection: string): Promise<boolean> {
      const [row] = await db
        .select({ allowed: chainCollections.allowed })
        .from(chainCollections)
        .where(and(eq(chainCollections.chainId, chainId), eq(chainCollections.collection, collection.toLowerCase())));
      return row?.allowed === true;
    },

    /** Who the mirror says holds the piece, or null when it has never seen it. */
    async ownerOf(piece: Piece): Promise<string | null> {
      const [row] = await db
        .select({ owner: chainNftOwners.owner })
        .from(chainNftOwners)
        .where(and(eq(chainNftOwners.chainId, chainId), eq(chainNftOwners.collection, piece.collection.toLowerCase()), eq(chainNftOwners.tokenId, piece.tokenId)));
      return row?.owner.toLowerCase() ?? null;
    },

    /** The pieces of allowed collections the wallet holds per the mirror, by collection then id. */
    async walletPieces(wallet: string): Promise<Piece[]> {
      const rows = await db
        .select({ collection: chainNftOwners.collection, tokenId: chainNftOwners.tokenId })
        .from(chainNftOwners)
        .innerJoin(chainCollections, and(eq(chainCollections.chainId, chainNftOwners.chainId), eq(chainCollections.collection, chainNftOwners.collection), eq(chainCollections.allowed, true)))
        .where(and(eq(chainNftOwners.chainId, chainId), eq(chainNftOwners.owner, wallet.toLowerCase())))
        .orderBy(asc(chainCollections.slot), asc(chainNftOwners.tokenId))
        .limit(MAX_WALLET_PIECES);
      return rows;
    },

    /** The cached metadata of these pieces, by pieceKey. */
    async metadata(pieces: Piece[]): Promise<Map<string, NftMetadataRow>> {
      const found = new Map<string, NftMetadataRow>();
      if (pieces.length === 0) return found;
      const collections = [...new Set(pieces.map((p) => p.collection.toLowerCase()))];
      const ids = [...new Set(pieces.map((p) => p.tokenId))];
      const rows = await db
        .select()
        .from(nftMetadata)
        .where(and(eq(nftMetadata.chainId, chainId), inArray(nftMetadata.collection, collections), inArray(nftMetadata.tokenId, ids)));
      for (const row of rows) found.set(pieceKey(row), row);
      return found;
    },

    async saveMetadata(rows: { collection: string; tokenId: bigint; collectionName: string | null; name: string | null; image: string | null }[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insert(nftMetadata)
        .values(rows.map((r) => ({ chainId, collection: r.collection.toLowerCase(), tokenId: r.tokenId, collectionName: r.collectionName, name: r.name, image: r.image })))
        .onConflictDoUpdate({
          target: [nftMetadata.chainId, nftMetadata.collection, nftMetadata.tokenId],
          set: { collectionName: sql`excluded.collection_name`, name: sql`excluded.name`, image: sql`excluded.image`, fetchedAt: sql`now()` },
        });
    },

    /** The user's pending or approved requests that pledge a piece, by pieceKey. */
    async openPledgesOf(userId: string): Promise<Map<string, string>> {
      const rows = await db
        .select({ id: loans.id, collection: loans.collateralCollection, tokenId: loans.collateralTokenId })
        .from(loans)
        .where(and(eq(loans.userId, userId), inArray(loans.status, ["pending", "approved"]), sql`${loans.collateralCollection} is not null`));
      return new Map(rows.map((r) => [pieceKey({ collection: r.collection!, tokenId: r.tokenId! }), r.id]));
    },

    /** The escrow's row of a note, when the mirror has seen its CollateralLocked. */
    async escrowOf(tokenId: bigint) {
      const [row] = await db
        .select()
        .from(chainCollateral)
        .where(and(eq(chainCollateral.chainId, chainId), eq(chainCollateral.tokenId, tokenId)));
      return row;
    },
  };
}

export type CollateralRepository = ReturnType<typeof createCollateralRepository>;
