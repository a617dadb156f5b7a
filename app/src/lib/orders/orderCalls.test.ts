import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeFunctionData, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { noteMarketplaceAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { ORDER_TYPES, orderDomain } from "#domain/orders";
import { acceptMatchingOfferCall, acceptOfferCall, cancelOrdersCall, fillListingWithPermitCall, incrementCounterCall, typedMessage } from "./orderCalls";

const target = { marketplace: "0x00000000000000000000000000000000000000aa" as Address, chainId: 31337 };
const seller = privateKeyToAccount(Object.values(DEV_ACCOUNTS)[1] as Hex);
const listing = { seller: seller.address, tokenId: "42", price: "0", parBps: "9900", changes: "3", maxDaysPastDue: "0", expiry: "1800000000", salt: "77", counter: "0" };

test("a listing as the API keeps it (decimal strings) signs and fills as the contract's struct, field for field", async () => {
  const message = typedMessage("Listing", listing);
  assert.deepEqual(message, { seller: seller.address, tokenId: 42n, price: 0n, parBps: 9900n, changes: 3n, maxDaysPastDue: 0n, expiry: 1_800_000_000n, salt: 77n, counter: 0n });
  const signature = await seller.signTypedData({ domain: orderDomain(target.chainId, target.marketplace), types: ORDER_TYPES, primaryType: "Listing", message: message as never });
  const permit = await seller.signMessage({ message: "not a permit, only 65 bytes to split" });
  const call = fillListingWithPermitCall(target, { message: listing, signature }, 9_900_000_000n, { deadline: 1_700_000_000n, signature: permit });
  assert.equal(call.to, target.marketplace);
  const decoded = decodeFunctionData({ abi: noteMarketplaceAbi, data: call.data });
  assert.equal(decoded.functionName, "fillListingWithPermit");
  const [struct, sig, maxPrice, deadline] = decoded.args as unknown as [Record<string, unknown>, Hex, bigint, bigint];
  assert.deepEqual({ ...struct }, message);
  assert.equal(sig, signature);
  assert.equal(maxPrice, 9_900_000_000n);
  assert.equal(deadline, 1_700_000_000n);
});

test("a message missing a signed field is refused before the wallet is asked", () => {
  const { salt: _salt, ...partial } = listing;
  assert.throws(() => typedMessage("Listing", partial), /no salt/);
});

test("accepting offers names the least the holder takes; cancelling names the hashes", () => {
  const offer = { buyer: seller.address, tokenId: "42", price: "0", parBps: "9700", cap: "9800000000", changes: "0", maxDaysPastDue: "0", expiry: "1800000000", salt: "1", counter: "0" };
  const accept = decodeFunctionData({ abi: noteMarketplaceAbi, data: acceptOfferCall(target, { message: offer, signature: "0x12" }, 5n).data });
  assert.equal(accept.functionName, "acceptOffer");
  assert.equal(accept.args?.[2], 5n);
  const matching = {
    buyer: seller.address,
    parBps: "9700",
    minRateBps: "1200",
    maxRateBps: "100000",
    minTermLeft: "1",
    maxTermLeft: "31104000",
    minOutstanding: "0",
    maxOutstanding: "1000000000000",
    maxDaysPastDue: "0",
    budget: "50000000000",
    expiry: "1800000000",
    salt: "2",
    counter: "0",
  };
  const acceptMatching = decodeFunctionData({ abi: noteMarketplaceAbi, data: acceptMatchingOfferCall(target, { message: matching, signature: "0x12" }, 42n, 6n).data });
  assert.equal(acceptMatching.functionName, "acceptMatchingOffer");
  assert.deepEqual(acceptMatching.args?.slice(2), [42n, 6n]);
  const hash = `0x${"ab".repeat(32)}` as Hex;
  assert.deepEqual(decodeFunctionData({ abi: noteMarketplaceAbi, data: cancelOrdersCall(target, [hash]).data }).args, [[hash]]);
  assert.equal(decodeFunctionData({ abi: noteMarketplaceAbi, data: incrementCounterCall(target).data }).functionName, "incrementCounter");
});
