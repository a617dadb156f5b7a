import { erc721Abi } from "viem";
import type { Handlers } from "../context";

/** The one event of a pledgeable collection the indexer reads: Transfer(from, to, tokenId), all three indexed. */
type Erc721Transfer = Extract<(typeof erc721Abi)[number], { type: "event"; name: "Transfer" }>;
export const erc721TransferAbi = erc721Abi.filter((item): item is Erc721Transfer => item.type === "event" && item.name === "Transfer");

/**
 * A followed collection's pieces (indexer/collections.ts): each Transfer sets the piece's owner, a burn to the zero
 * address included (the row stays, owned by nobody). The escrow shows as LoanNote owning the piece. The mirror is a
 * list to pick from, not a proof (docs/decisions.md "NFT collateral off-chain").
 */
export const collectionHandlers: Handlers<typeof erc721TransferAbi> = {
  Transfer(event, ctx) {
    const { to, tokenId } = event.args;
    ctx.nftOwners.put({ chainId: ctx.chainId, collection: event.address, tokenId, owner: to, updatedBlock: event.blockNumber }, event);
  },
};
