import { integer, numeric, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The API's cache of pledgeable NFTs' metadata, read from their collection's `tokenURI` (and `name`). Only what
 * passed the checks is kept: `image` is a checked image data URI (domain/nftImage.ts) or null. It can always be
 * dropped and read again.
 */
export const nftMetadata = pgTable(
  "nft_metadata",
  {
    chainId: integer("chain_id").notNull(),
    collection: text("collection").notNull(),
    tokenId: numeric("token_id", { precision: 78, scale: 0, mode: "bigint" }).notNull(),
    collectionName: text("collection_name"),
    name: text("name"),
    image: text("image"),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.collection, t.tokenId] })],
);

export type NftMetadataRow = typeof nftMetadata.$inferSelect;
