import { z } from "zod";
import { COLLATERAL_STATES } from "../statuses";

/**
 * A pledged ERC-721 as every route answers it: on a loan (WireLoan.collateral.nft) and on a note
 * (WireNft.collateral). Addresses are lowercase, ids decimal strings, money decimal USD strings. `image` is null or a
 * checked image data URI (domain/nftImage.ts): the app shows it only as an `<img>`.
 */
export const wirePledgedNftSchema = z.object({
  collection: z.string(),
  collectionName: z.string().nullable(),
  tokenId: z.string(),
  name: z.string().nullable(),
  image: z.string().nullable(),
  state: z.enum(COLLATERAL_STATES),
  /** The admin's appraisal, USD; null until appraised. */
  appraisal: z.string().nullable(),
  /** Principal (the requested amount before approval) over the appraisal, in basis points rounded half up (domain/loanToValue.ts); null without an appraisal. */
  loanToValueBps: z.number().int().nullable(),
  /** The transaction of the last on-chain change (lock, return, failed return, claim); null while only pledged. */
  txHash: z.string().nullable(),
  /** Who received the piece when it left escrow (returned or claimed). */
  receiver: z.string().nullable(),
});
export type WirePledgedNft = z.infer<typeof wirePledgedNftSchema>;

/** One piece of an allowed collection that the caller's verified wallet holds (GET /collateral/mine). */
export const wireWalletNftSchema = z.object({
  collection: z.string(),
  collectionName: z.string().nullable(),
  tokenId: z.string(),
  name: z.string().nullable(),
  image: z.string().nullable(),
  /** A pending or approved request of the caller's that already pledges it. */
  pledgedLoanId: z.string().nullable(),
});
export type WireWalletNft = z.infer<typeof wireWalletNftSchema>;

export const wireWalletNftsSchema = z.object({ walletAddress: z.string().nullable(), nfts: z.array(wireWalletNftSchema) });
export type WireWalletNfts = z.infer<typeof wireWalletNftsSchema>;

/** A call for the user's wallet, with the words shown before it is sent. */
export const wireWalletCallSchema = z.object({ to: z.string(), data: z.string(), value: z.string(), summary: z.string() });
export type WireWalletCall = z.infer<typeof wireWalletCallSchema>;

/**
 * GET /loans/{id}/collateral: the pledged piece read live from its collection, for the request page and the admin's
 * review. `approval` is the one call that lets the escrow take it (null once approved, or when the wallet no longer
 * holds it).
 */
export const wireCollateralCheckSchema = z.object({
  nft: wirePledgedNftSchema,
  borrowerWallet: z.string().nullable(),
  owner: z.string().nullable(),
  held: z.boolean(),
  approved: z.boolean(),
  approval: wireWalletCallSchema.nullable(),
});
export type WireCollateralCheck = z.infer<typeof wireCollateralCheckSchema>;
