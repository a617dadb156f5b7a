import { getAddress, maxUint256, type Address, type ContractErrorName, type Hex } from "viem";
import { ORDER_TYPES, orderDomain, parPrice, type SignedListing, type SignedMatchingOffer, type SignedOffer } from "#domain/orders";
import { DEFAULT_TERMS, ROLES, deployLoanNoteFixture, type LoanNoteFixture } from "./fixtures";
import { fund, now } from "./helpers";

type Wallet = LoanNoteFixture["wallets"][number];
/** Who signs: an EOA's wallet client, or a contract wallet whose owner's key signs for it. */
export type Signer = Wallet | { wallet: Address; owner: Wallet };

const signerAddress = (s: Signer): Address => ("wallet" in s ? s.wallet : getAddress(s.account.address));
const keyOf = (s: Signer): Wallet => ("wallet" in s ? s.owner : s);

let salt = 1n;

async function sign(f: LoanNoteFixture, signer: Signer, primaryType: keyof typeof ORDER_TYPES, message: object): Promise<Hex> {
  const wallet = keyOf(signer);
  return wallet.signTypedData({
    account: wallet.account,
    domain: orderDomain(await f.publicClient.getChainId(), f.marketplace.address),
    types: ORDER_TYPES,
    primaryType,
    message: message as never,
  });
}

async function defaults(f: LoanNoteFixture, signer: Signer) {
  return { maxDaysPastDue: 0n, expiry: (await now(f)) + 730n * 86_400n, salt: salt++, counter: await f.marketplace.read.counterOf([signerAddress(signer)]) };
}

/** A signed listing of `tokenId`: at a fixed price bound to the note's current change count, or at `parBps`. */
export async function signListing(f: LoanNoteFixture, seller: Signer, fields: Partial<SignedListing> & { tokenId: bigint }) {
  const [, changes] = await f.note.read.ownershipOf([fields.tokenId]);
  const order: SignedListing = {
    seller: signerAddress(seller),
    price: 0n,
    parBps: 0n,
    changes: BigInt(changes),
    ...(await defaults(f, seller)),
    ...fields,
  };
  return { order, signature: await sign(f, seller, "Listing", order), hash: await f.marketplace.read.hashListing([order]) };
}

/** A signed offer on `tokenId`: a fixed price bound to the note's current change count, or `parBps` up to `cap`. */
export async function signOffer(f: LoanNoteFixture, buyer: Signer, fields: Partial<SignedOffer> & { tokenId: bigint }) {
  const [, changes] = await f.note.read.ownershipOf([fields.tokenId]);
  const order: SignedOffer = {
    buyer: signerAddress(buyer),
    price: 0n,
    parBps: 0n,
    cap: maxUint256,
    changes: BigInt(changes),
    ...(await defaults(f, buyer)),
    ...fields,
  };
  return { order, signature: await sign(f, buyer, "Offer", order), hash: await f.marketplace.read.hashOffer([order]) };
}

/** A signed offer on any note: by default every range is open and the budget is $1 million. */
export async function signMatchingOffer(f: LoanNoteFixture, buyer: Signer, fields: Partial<SignedMatchingOffer>) {
  const order: SignedMatchingOffer = {
    buyer: signerAddress(buyer),
    parBps: 10_000n,
    minRateBps: 0n,
    maxRateBps: maxUint256,
    minTermLeft: 0n,
    maxTermLeft: maxUint256,
    minOutstanding: 0n,
    maxOutstanding: maxUint256,
    budget: 1_000_000_000_000n,
    ...(await defaults(f, buyer)),
    ...fields,
  };
  return { order, signature: await sign(f, buyer, "MatchingOffer", order), hash: await f.marketplace.read.hashMatchingOffer([order]) };
}

/**
 * The dirty par price of `tokenId` at `parBps` as the chain computes it in the latest block (noteStateOf): what a par
 * fill pays in a block on the same day of the loan's period. 100% of par is then exactly `payoffAmount`.
 */
export async function parPriceOf(f: LoanNoteFixture, tokenId: bigint, parBps: bigint): Promise<bigint> {
  const state = await f.note.read.noteStateOf([tokenId]);
  return parPrice({ principal: state.outstanding, interest: state.interest }, parBps);
}

type MarketError = ContractErrorName<LoanNoteFixture["marketplace"]["abi"]>;

/** A wallet's checksummed address, as the contracts' events and views return it. */
export const addressOf = (w: { account: { address: Address } }): Address => getAddress(w.account.address);

/**
 * The start of every signed-order test file: the fixture with three investors (seller, buyer, other), each holding
 * $100,000 with the marketplace approved for their dollars and notes, and the borrower funded to repay; `restore`
 * goes back to that state (call it before each test).
 */
export async function deployOrderFixture() {
  const f = await deployLoanNoteFixture();
  const [seller, buyer, other] = f.wallets.slice(ROLES.firstUser, ROLES.firstUser + 3);
  for (const wallet of [seller, buyer, other]) {
    await fund(f, wallet, 100n * DEFAULT_TERMS.principal, f.marketplace.address);
    await f.note.write.setApprovalForAll([f.marketplace.address, true], { account: wallet.account });
  }
  await fund(f, f.accounts.borrower, 100n * DEFAULT_TERMS.principal, f.note.address);
  const snapshot = await f.networkHelpers.takeSnapshot();
  return {
    f,
    seller,
    buyer,
    other,
    restore: () => snapshot.restore(),
    /** Asserts the marketplace refused with `error` and exactly these arguments. */
    refused: (promise: Promise<unknown>, error: MarketError, args: unknown[]) => f.viem.assertions.revertWithCustomErrorWithArgs(promise, f.marketplace, error, args as never),
    /** The borrower repays `amount` on the note. */
    repay: (tokenId: bigint, amount: bigint) => f.note.write.repay([tokenId, amount], { account: f.accounts.borrower.account }),
    balance: (w: Address | { account: { address: Address } }) => f.dollar.read.balanceOf([typeof w === "string" ? w : w.account.address]),
  };
}

export type OrderFixture = Awaited<ReturnType<typeof deployOrderFixture>>;
