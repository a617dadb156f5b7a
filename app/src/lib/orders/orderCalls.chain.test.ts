import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createWalletClient, http, type Address, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { loanNoteAbi, noteMarketplaceAbi, testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS, FREE_DEV_KEYS } from "#domain/devAccounts";
import { ORDER_TYPES, orderDomain, parPrice } from "#domain/orders";
import { startTestChain, type TestChain } from "#testing/chain";
import type { WalletCall } from "../wallet/walletCall";
import { marketplacePermit } from "./marketplacePermit";
import { noteApprovalCall } from "./noteApproval";
import { acceptMatchingOfferCall, acceptOfferCall, cancelOrdersCall, fillListingWithPermitCall, incrementCounterCall, walletTypedData } from "./orderCalls";
import { secondsInMonths } from "./orderWords";

// The app's calls against the real contracts: orders signed the way the app signs what the API answers (decimal
// strings through walletTypedData), filled and cancelled with the calls the app sends.
let chain: TestChain;
let target: { marketplace: Address; chainId: number };
const treasury = privateKeyToAccount(DEV_ACCOUNTS.treasury);
const investor = privateKeyToAccount(DEV_ACCOUNTS.demoInvestor);
const other = privateKeyToAccount(FREE_DEV_KEYS[0]);
const PRINCIPAL = 10_000_000_000n;
const FAR = "4000000000";

async function send(account: PrivateKeyAccount, call: { to: Address; data: Hex }) {
  const wallet = createWalletClient({ account, transport: http(chain.rpcUrl) });
  const hash = await wallet.sendTransaction({ to: call.to, data: call.data, chain: null });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  assert.equal(receipt.status, "success");
}

async function write(account: PrivateKeyAccount, address: Address, abi: typeof testDollarAbi | typeof loanNoteAbi, functionName: string, args: unknown[]) {
  const wallet = createWalletClient({ account, transport: http(chain.rpcUrl) });
  const hash = await wallet.writeContract({ address, abi, functionName, args, chain: null } as never);
  assert.equal((await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status, "success");
}

/** Typed data as POST /orders/typed-data answers it: uints as decimal strings. */
function answered(primaryType: keyof typeof ORDER_TYPES, message: Record<string, string>) {
  return { domain: orderDomain(target.chainId, target.marketplace), types: { [primaryType]: ORDER_TYPES[primaryType] }, primaryType, message };
}

async function sign(account: PrivateKeyAccount, primaryType: keyof typeof ORDER_TYPES, message: Record<string, string>) {
  return { message, signature: await account.signTypedData(walletTypedData(answered(primaryType, message)) as never) };
}

const ownerOf = (tokenId: bigint) => chain.publicClient.readContract({ address: chain.deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "ownerOf", args: [tokenId] });
const balanceOf = (who: Address) => chain.publicClient.readContract({ address: chain.deployment.contracts.stablecoin as Address, abi: testDollarAbi, functionName: "balanceOf", args: [who] });
const allowanceOf = (who: Address) =>
  chain.publicClient.readContract({ address: chain.deployment.contracts.stablecoin as Address, abi: testDollarAbi, functionName: "allowance", args: [who, target.marketplace] });
/** What settles the note now, split as a par price reads it (the contract's own noteStateOf). */
const splitOf = async (tokenId: bigint) => {
  const state = await chain.publicClient.readContract({ address: chain.deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "noteStateOf", args: [tokenId] });
  return { principal: state.outstanding, interest: state.interest };
};

before(async () => {
  chain = await startTestChain();
  target = { marketplace: chain.deployment.contracts.marketplace as Address, chainId: 31337 };
  const { stablecoin, loanNote } = chain.deployment.contracts as Record<string, Address>;
  const deployer = privateKeyToAccount(DEV_ACCOUNTS.deployer);
  for (const id of [1n, 2n]) await chain.originate(id, PRINCIPAL);
  for (const who of [investor, other]) await write(deployer, stablecoin, testDollarAbi, "mint", [who.address, 100_000_000_000n]);
  // The offer's buyer pays by allowance; the listing's buyer brings a permit and has allowed nothing.
  await write(other, stablecoin, testDollarAbi, "approve", [target.marketplace, 100_000_000_000n]);
  for (const who of [treasury, investor]) await write(who, loanNote, loanNoteAbi, "setApprovalForAll", [target.marketplace, true]);
  // A repayment first, so the par price is of an outstanding principal (and interest) that moved.
  await chain.repay(1n, 333_333_333n);
});
after(() => chain?.stop());

test("a buyer fills a 99%-of-par listing with one permit and one transaction, paying at most the price shown", async () => {
  const listing = await sign(treasury, "Listing", { seller: treasury.address, tokenId: "1", price: "0", parBps: "9900", changes: "0", maxDaysPastDue: "0", expiry: FAR, salt: "1", counter: "0" });
  const shown = parPrice(await splitOf(1n), 9900n);
  const { permit, deadline } = await marketplacePermit(chain.publicClient, chain.deployment.contracts.stablecoin as Address, target.marketplace, investor.address, shown);
  const permitSignature = await investor.signTypedData({
    ...permit,
    message: { ...permit.message, value: BigInt(permit.message.value), nonce: BigInt(permit.message.nonce), deadline: BigInt(permit.message.deadline) },
  } as never);
  const before = await balanceOf(investor.address);
  await send(investor, fillListingWithPermitCall(target, listing, shown, { deadline, signature: permitSignature }));
  assert.equal((await ownerOf(1n)).toLowerCase(), investor.address.toLowerCase());
  assert.equal(before - (await balanceOf(investor.address)), shown);
  // The permit set the allowance to the price (ERC-2612 sets, never adds) and the purchase spent it: the investor's
  // offers are unfunded until they allow again, which the offer forms' funding note offers.
  assert.equal(await allowanceOf(investor.address), 0n);
});

test("the holder accepts an offer on the note for at least its price now", async () => {
  const offer = await sign(other, "Offer", {
    buyer: other.address,
    tokenId: "1",
    price: "0",
    parBps: "9700",
    cap: "20000000000",
    changes: "0",
    maxDaysPastDue: "0",
    expiry: FAR,
    salt: "2",
    counter: "0",
  });
  const price = parPrice(await splitOf(1n), 9700n);
  await send(investor, acceptOfferCall(target, offer, price));
  assert.equal((await ownerOf(1n)).toLowerCase(), other.address.toLowerCase());
});

test("the holder of a matching note accepts an offer on any note at 12%+ with at most 13 months left, paid by the buyer's allowance", async () => {
  const matching = await sign(investor, "MatchingOffer", {
    buyer: investor.address,
    parBps: "9700",
    minRateBps: "1200",
    maxRateBps: ((1n << 256n) - 1n).toString(),
    minTermLeft: "1",
    maxTermLeft: secondsInMonths(13).toString(),
    minOutstanding: "0",
    maxOutstanding: ((1n << 256n) - 1n).toString(),
    maxDaysPastDue: "0",
    budget: "50000000000",
    expiry: FAR,
    salt: "3",
    counter: "0",
  });
  await write(investor, chain.deployment.contracts.stablecoin as Address, testDollarAbi, "approve", [target.marketplace, 50_000_000_000n]);
  const price = parPrice(await splitOf(2n), 9700n);
  await send(treasury, acceptMatchingOfferCall(target, matching, 2n, price));
  assert.equal((await ownerOf(2n)).toLowerCase(), investor.address.toLowerCase());
});

test("a holder who never approved the marketplace for their notes is asked to, once", async () => {
  const config = { chainId: 31337, contracts: chain.deployment.contracts };
  const call = await noteApprovalCall(chain.publicClient, config, other.address);
  assert.ok(call, "a fresh holder needs the approval");
  await send(other, call);
  assert.equal(await noteApprovalCall(chain.publicClient, config, other.address), null);
});

test("a cancelled order and every order before the counter moved can no longer fill", async () => {
  const offer = await sign(other, "Offer", {
    buyer: other.address,
    tokenId: "2",
    price: "0",
    parBps: "9000",
    cap: "20000000000",
    changes: "0",
    maxDaysPastDue: "0",
    expiry: FAR,
    salt: "4",
    counter: "0",
  });
  const hash = await chain.publicClient.readContract({
    address: target.marketplace,
    abi: noteMarketplaceAbi,
    functionName: "hashOffer",
    args: [walletTypedData(answered("Offer", offer.message)).message as never],
  });
  await send(other, cancelOrdersCall(target, [hash]));
  const [used] = await chain.publicClient.readContract({ address: target.marketplace, abi: noteMarketplaceAbi, functionName: "orderStatus", args: [other.address, hash] });
  assert.equal(used, true);
  await send(other, incrementCounterCall(target) as WalletCall);
  assert.equal(await chain.publicClient.readContract({ address: target.marketplace, abi: noteMarketplaceAbi, functionName: "counterOf", args: [other.address] }), 1n);
});
