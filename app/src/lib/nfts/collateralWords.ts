import type { CollateralState } from "#domain/statuses";
import type { WirePledgedNft } from "#domain/wire/collateral";
import { shortAddress } from "../format";

/** Where a pledged NFT stands, in the words every page uses. */
export const COLLATERAL_STATE_TEXT: Record<CollateralState, string> = {
  pledged: "Pledged",
  released: "Released – free to pledge again",
  locked: "In escrow",
  returnFailed: "Return failed – claim it back",
  returned: "Returned to borrower",
  claimed: "Claimed by the note holder",
  moved: "Still in escrow, now for the loan that refinanced this one",
};

/** The badge colour of each state: in escrow is the normal life of a loan, a failed return asks for action. */
export const COLLATERAL_STATE_TONE: Record<CollateralState, "neutral" | "success" | "warning" | "danger"> = {
  pledged: "neutral",
  released: "neutral",
  locked: "success",
  returnFailed: "warning",
  returned: "neutral",
  claimed: "neutral",
  moved: "neutral",
};

/** Basis points of loan-to-value as the card shows them: 6667 → "LTV 66.7%"; null without an appraisal. */
export function ltvText(bps: number | null | undefined): string | null {
  if (bps === null || bps === undefined || !Number.isFinite(bps)) return null;
  const tenths = Math.round(bps / 10);
  const whole = Math.trunc(tenths / 10);
  const rest = tenths % 10;
  return `LTV ${whole}${rest ? `.${rest}` : ""}%`;
}

/** "Demo Piece #2": the piece's own name, else its collection's with its id, else the short address with its id. */
export function pieceTitle(nft: Pick<WirePledgedNft, "name" | "collectionName" | "collection" | "tokenId">): string {
  const name = nft.name?.trim();
  if (name) return name;
  return `${nft.collectionName?.trim() || shortAddress(nft.collection)} #${nft.tokenId}`;
}

/**
 * The description a pick fills in: the piece named once, with its collection beside it when the name does not say it
 * already ("Sunset #2 (LoanMint Demo Art)", but "LoanMint Demo Art #2"), else the collection's name and the id.
 */
export function pledgeDescription(nft: Pick<WirePledgedNft, "name" | "collectionName" | "collection" | "tokenId">): string {
  const title = pieceTitle(nft);
  const collection = nft.collectionName?.trim() || shortAddress(nft.collection);
  return nft.name?.trim() && !title.includes(collection) ? `${title} (${collection})` : title;
}

/** A rejected request's piece: nothing was escrowed, and the wizard offers it again. */
export function releasedText(nft: Pick<WirePledgedNft, "name" | "collectionName" | "collection" | "tokenId">): string {
  return `${pieceTitle(nft)} is released: nothing was held in escrow, and you can pledge it to a new request.`;
}

/** "Demo Art (0x1234...abcd)": the collection's name beside its short address, or the address alone. */
export function collectionText(nft: Pick<WirePledgedNft, "collectionName" | "collection">): string {
  const name = nft.collectionName?.trim();
  return name ? `${name} (${shortAddress(nft.collection)})` : shortAddress(nft.collection);
}

/** A `collateral:update` as the toast reads it: the new state, the piece and who received it. */
export interface CollateralMove {
  state: CollateralState;
  collection: string;
  collateralId: string;
  to?: string | null;
  /** Added by the API as it delivers the event; null when no name is known. */
  collectionName?: string | null;
}

/**
 * How a toast names a moved piece: as the pages show it when one of them loaded it, else by the collection's name
 * the event carries ("LoanMint Demo Art #2"), else by the collection's short address.
 */
export function moveTitle(move: Pick<CollateralMove, "collection" | "collateralId" | "collectionName">, known: WirePledgedNft | null): string {
  const name = known?.name?.trim();
  if (name) return name;
  return `${known?.collectionName?.trim() || move.collectionName?.trim() || shortAddress(move.collection)} #${move.collateralId}`;
}

/**
 * The live toast for a moved NFT, said only to the wallet it concerns (the event also reaches the marketplace room):
 * "Demo Piece #2 is back in your wallet". Null when it is not about the user's wallet.
 */
export function collateralToastText(move: CollateralMove, me: string | null, title: string): string | null {
  if (!me || !move.to || move.to.toLowerCase() !== me.toLowerCase()) return null;
  if (move.state === "returned") return `${title} is back in your wallet`;
  if (move.state === "claimed") return `${title} is now in your wallet: the note is settled`;
  if (move.state === "returnFailed") return `${title} could not be returned to your wallet: claim it back on your loan's page`;
  return null;
}

/**
 * Finds the piece among what the pages already loaded (notes, loans, the portfolio), to name it in a toast; a few
 * levels deep only, so a large cache is never walked whole.
 */
export function findPledgedNft(data: unknown, collection: string, tokenId: string, depth = 5): WirePledgedNft | null {
  if (!data || typeof data !== "object" || depth < 0) return null;
  const record = data as Record<string, unknown>;
  if (typeof record.collection === "string" && record.collection.toLowerCase() === collection.toLowerCase() && record.tokenId === tokenId && "state" in record) {
    return record as unknown as WirePledgedNft;
  }
  for (const value of Array.isArray(data) ? data : Object.values(record)) {
    const found = value && typeof value === "object" ? findPledgedNft(value, collection, tokenId, depth - 1) : null;
    if (found) return found;
  }
  return null;
}
