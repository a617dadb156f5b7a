import type { Address, Hex } from "viem";
import { loanNoteAbi, noteMarketplaceAbi } from "#domain/abis";
import { formatUsdAmount, parseUsd } from "#domain/money";
import type { WireOrder } from "#domain/wire/order";
import type { TreasuryOfferWire as TreasuryOffer } from "#domain/wire/treasuryOffer";
import type { OrderRow } from "#db/schema/orders";
import { conflict, notFound } from "../http/errors";
import type { ChainGateway } from "../chain/gateway";
import type { OrdersService } from "../orders/service";
import { messageOf } from "../orders/wire";
import { onChain } from "./service";
import { TREASURY_ANSWERS } from "./texts";

export interface TreasuryOffersDeps {
  chain: ChainGateway;
  /** The order book's judgement of which offers are open now (api/src/orders/service.ts). */
  book: Pick<OrdersService, "received">;
  orders: { byHash(hash: string): Promise<OrderRow | undefined>; heldTokenIds(wallet: string): Promise<bigint[]> };
}

const BPS = 10_000n;
const HASH = /^0x[0-9a-f]{64}$/;

/**
 * Offers on the notes the treasury holds, and their acceptance: the treasury holds most listed notes and has no
 * wallet in a browser, so the server signs and sends the acceptance with the treasury key, as it does the other
 * treasury actions. The treasury approved the marketplace for its notes when the contracts were deployed.
 */
export function createTreasuryOffers(deps: TreasuryOffersDeps) {
  const { chain } = deps;

  async function contracts() {
    const deployment = await chain.deployment();
    return { loanNote: deployment.contracts.loanNote as Address, marketplace: deployment.contracts.marketplace as Address, treasury: deployment.treasury as Address };
  }

  async function withFees(offers: WireOrder[]): Promise<TreasuryOffer[]> {
    const { marketplace } = await contracts();
    const feeBps = BigInt(await chain.publicClient.readContract({ address: marketplace, abi: noteMarketplaceAbi, functionName: "feeBps" }));
    return offers.map((offer) => {
      const price = parseUsd(offer.priceNow ?? "0");
      const fee = (price * feeBps) / BPS;
      return { ...offer, fee: formatUsdAmount(fee), proceeds: formatUsdAmount(price - fee) };
    });
  }

  return {
    /** Every open offer the treasury could accept now, on any note it holds, best price first. */
    async open(): Promise<{ offers: TreasuryOffer[] }> {
      return onChain(async () => {
        const { treasury } = await contracts();
        const held = await deps.orders.heldTokenIds(treasury.toLowerCase());
        return { offers: await withFees(await deps.book.received(treasury, held)) };
      });
    },

    /**
     * Accepts the open offer `hash` on the treasury's note `tokenId` (for a matching offer, the note it sells), for at
     * least `minPrice`, the price the admin reviewed: acceptOffer or acceptMatchingOffer, sent by the treasury key.
     */
    async accept(hash: string, input: { tokenId: bigint; minPrice: bigint }) {
      const key = hash.toLowerCase();
      if (!HASH.test(key)) throw notFound(TREASURY_ANSWERS.offerNotFound);
      const row = await deps.orders.byHash(key);
      if (!row || row.kind === "listing") throw notFound(TREASURY_ANSWERS.offerNotFound);
      if (row.kind === "offer" && row.tokenId !== input.tokenId) throw conflict(TREASURY_ANSWERS.offerOtherNote);
      return onChain(async () => {
        const { loanNote, marketplace, treasury } = await contracts();
        const owner = await chain.publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "ownerOf", args: [input.tokenId] }).catch(() => null);
        if (!owner || owner.toLowerCase() !== treasury.toLowerCase()) throw conflict(TREASURY_ANSWERS.notHeld);
        const [offer] = await withFees((await deps.book.received(treasury, [input.tokenId])).filter((o) => o.hash === key && o.tokenId === input.tokenId.toString()));
        if (!offer) throw conflict(TREASURY_ANSWERS.offerNotOpen);
        const price = parseUsd(offer.priceNow!);
        if (price < input.minPrice) throw conflict(TREASURY_ANSWERS.priceBelowReviewed(offer.priceNow!, formatUsdAmount(input.minPrice)));
        const message = messageOf(row) as never;
        const signature = row.signature as Hex;
        const receipt =
          row.kind === "offer"
            ? await chain.send({ signer: "treasury", address: marketplace, abi: noteMarketplaceAbi, functionName: "acceptOffer", args: [message, signature, input.minPrice] })
            : await chain.send({ signer: "treasury", address: marketplace, abi: noteMarketplaceAbi, functionName: "acceptMatchingOffer", args: [message, signature, input.tokenId, input.minPrice] });
        return { hash: key, tokenId: input.tokenId.toString(), buyer: row.signer, price: offer.priceNow!, fee: offer.fee, proceeds: offer.proceeds, txHash: receipt.transactionHash };
      });
    },
  };
}
export type TreasuryOffers = ReturnType<typeof createTreasuryOffers>;
