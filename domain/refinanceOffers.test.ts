import assert from "node:assert/strict";
import { test } from "node:test";
import { hashTypedData, zeroAddress } from "viem";
import { REFINANCE_OFFER_TYPES, refinanceNet, refinanceOfferTypedData } from "./refinanceOffers";

test("a refinance offer's typed data carries every signed field as a decimal string, in the marketplace's domain", () => {
  const offer = { lender: zeroAddress, tokenId: 42n, rateBps: 900n, termMonths: 24n, maxPrincipal: 5_000_000_000n, maxDaysPastDue: 0n, expiry: 1n, salt: 2n, counter: 3n };
  const typed = refinanceOfferTypedData("RefinanceOffer", 31337, "0x0000000000000000000000000000000000000001", offer);
  assert.deepEqual(
    Object.keys(typed.message),
    REFINANCE_OFFER_TYPES.RefinanceOffer.map((f) => f.name),
  );
  assert.equal(typed.message.maxPrincipal, "5000000000");
  assert.deepEqual(typed.domain, { name: "LoanMint Marketplace", version: "1", chainId: 31337, verifyingContract: "0x0000000000000000000000000000000000000001" });
  // JSON strings and bigints sign the same digest: what the API sends is what the contract verifies.
  assert.equal(hashTypedData(typed as never), hashTypedData({ ...typed, message: offer } as never));
});

test("a refinance's net is a cash out above the payoff and a cash in below it", () => {
  assert.deepEqual(refinanceNet(1_200n, 1_000n), { cashOut: 200n, cashIn: 0n });
  assert.deepEqual(refinanceNet(900n, 1_000n), { cashOut: 0n, cashIn: 100n });
  assert.deepEqual(refinanceNet(1_000n, 1_000n), { cashOut: 0n, cashIn: 0n });
});
