import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, createWalletClient, http, maxUint256, type Abi, type Address, type Hex, type PublicClient, type WalletClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ensureCompiled, deployAll } from "#contracts/deploy";
import { startAnvil, type Anvil, type AnvilOptions } from "#devchain/anvil";
import { loanNoteAbi, noteMarketplaceAbi, noteVaultAbi, testDollarAbi } from "#domain/abis";
import type { Deployment } from "#domain/deployment";
import { DEV_ACCOUNTS, FREE_DEV_KEYS } from "#domain/devAccounts";
import { ORDER_TYPES, orderDomain, type SignedListing, type SignedMatchingOffer, type SignedOffer } from "#domain/orders";
import { refinanceOfferTypedData, type SignedRefinanceOffer } from "#domain/refinanceOffers";
import { PERIOD_SECONDS } from "#domain/schedule";

/** A signed order as the test chain makes it: the order, its signature and its EIP-712 hash (the contract's id). */
export interface Signed<Order> {
  order: Order;
  signature: Hex;
  hash: Hex;
}

/** Test support for the indexer: a private anvil with the contracts deployed, and the on-chain moves of the product. */
export interface TestChain {
  anvil: Anvil;
  rpcUrl: string;
  deployment: Deployment;
  publicClient: PublicClient;
  actors: Record<"originator" | "treasury" | "borrower" | "investor" | "other", Address>;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  originate(tokenId: bigint, principal?: bigint): Promise<Hex>;
  list(tokenId: bigint, price: bigint, seller?: Address): Promise<Hex>;
  updatePrice(tokenId: bigint, price: bigint, seller?: Address): Promise<Hex>;
  cancel(tokenId: bigint, seller?: Address): Promise<Hex>;
  buy(tokenId: bigint, price: bigint, buyer?: Address): Promise<Hex>;
  transfer(tokenId: bigint, from: Address, to: Address): Promise<Hex>;
  deposit(tokenId: bigint, owner: Address): Promise<Hex>;
  withdrawFromVault(tokenId: bigint, depositor: Address, to?: Address): Promise<Hex>;
  repay(tokenId: bigint, amount: bigint, payer?: Address): Promise<Hex>;
  /** Moves the chain's clock past the loan's maturity and grace period, then marks it defaulted (originator). */
  markDefaulted(tokenId: bigint): Promise<Hex>;
  withdrawCredits(account: Address): Promise<Hex>;
  /** Signed orders (contracts/NoteOrders.sol): fixed price by default (bound to the note's change count), or parBps. */
  signListing(tokenId: bigint, fields?: Partial<SignedListing>, seller?: Address): Promise<Signed<SignedListing>>;
  signOffer(tokenId: bigint, fields?: Partial<SignedOffer>, buyer?: Address): Promise<Signed<SignedOffer>>;
  /** Every range open and a $1 million budget unless `fields` says otherwise. */
  signMatchingOffer(fields?: Partial<SignedMatchingOffer>, buyer?: Address): Promise<Signed<SignedMatchingOffer>>;
  /** Fills a listing as `buyer` (minted the dollars and approved first), paying at most `maxPrice`. */
  fillListing(listing: Signed<SignedListing>, maxPrice: bigint, buyer?: Address): Promise<Hex>;
  /** Accepts an offer as the note's holder; the offer's buyer is minted `funds` dollars and approves first. */
  acceptOffer(offer: Signed<SignedOffer>, holder: Address, funds: bigint): Promise<Hex>;
  acceptMatchingOffer(offer: Signed<SignedMatchingOffer>, tokenId: bigint, holder: Address, funds: bigint): Promise<Hex>;
  /**
   * Refinances `tokenId` (the borrower's loan): `lender` (minted `principal` dollars, approved first) signs a one-loan
   * offer, 9% over 12 months unless `fields` says otherwise, and the borrower accepts it for `principal`, taking any net.
   */
  refinance(tokenId: bigint, principal: bigint, lender?: Address, fields?: Partial<SignedRefinanceOffer>): Promise<Hex>;
  cancelOrders(signer: Address, hashes: Hex[]): Promise<Hex>;
  incrementCounter(signer: Address): Promise<Hex>;
  stop(): Promise<void>;
}

const KEYS = {
  deployer: DEV_ACCOUNTS.deployer,
  originator: DEV_ACCOUNTS.originator,
  treasury: DEV_ACCOUNTS.treasury,
  borrower: DEV_ACCOUNTS.demoBorrower,
  investor: DEV_ACCOUNTS.demoInvestor,
  other: FREE_DEV_KEYS[0],
} as const;

/** `anvil` options e.g. a state file, for a test that stops the chain and starts it again where it was. */
export async function startTestChain(anvilOptions: AnvilOptions = {}): Promise<TestChain> {
  await ensureCompiled();
  const anvil = await startAnvil(anvilOptions);
  const dataDir = mkdtempSync(join(tmpdir(), "lm-indexer-"));
  try {
    const deployment = await deployAll({ rpcUrl: anvil.rpcUrl, dataDir });
    return await makeTestChain(anvil, deployment, dataDir);
  } catch (error) {
    await anvil.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function makeTestChain(anvil: Anvil, deployment: Deployment, dataDir: string): Promise<TestChain> {
  const transport = http(anvil.rpcUrl);
  const publicClient = createPublicClient({ transport, cacheTime: 0 }) as PublicClient;
  const wallets = new Map<string, WalletClient>();
  const addressOf = {} as Record<keyof typeof KEYS, Address>;
  for (const [role, key] of Object.entries(KEYS)) {
    const account = privateKeyToAccount(key);
    addressOf[role as keyof typeof KEYS] = account.address;
    wallets.set(account.address.toLowerCase(), createWalletClient({ account, transport }));
  }
  const { loanNote, marketplace, vault, stablecoin } = deployment.contracts as Record<string, Address>;

  async function send(from: Address, to: Address, abi: Abi, functionName: string, args: unknown[]): Promise<Hex> {
    const wallet = wallets.get(from.toLowerCase());
    if (!wallet) throw new Error(`no key for ${from}`);
    // Headroom over the estimate, as wallets give: a cost that moves between estimate and block (a storage slot
    // another transaction of the same block touched first) otherwise runs a call out of gas now and then.
    const estimate = await publicClient.estimateContractGas({ address: to, abi, functionName, args, account: wallet.account! });
    const hash = await wallet.writeContract({ address: to, abi, functionName, args, chain: null, account: wallet.account!, gas: estimate + estimate / 4n });
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success") throw new Error(`${functionName} reverted: ${await revertDetails(hash, receipt.gasUsed)}`);
    return hash;
  }
  /** Why a mined transaction failed: its replayed revert reason, and whether it ran out of gas. */
  async function revertDetails(hash: Hex, gasUsed: bigint): Promise<string> {
    const tx = await publicClient.getTransaction({ hash });
    const outOfGas = gasUsed >= tx.gas ? ` (used all ${tx.gas} gas)` : ` (gas ${gasUsed} of ${tx.gas})`;
    try {
      await publicClient.call({ account: tx.from, to: tx.to, data: tx.input, blockNumber: tx.blockNumber! - 1n });
      return `replays without error one block earlier${outOfGas}`;
    } catch (error) {
      return `${(error as Error).message.split("\n")[0]}${outOfGas}`;
    }
  }
  const dollars = (to: Address, amount: bigint) => send(addressOf.deployer, stablecoin, testDollarAbi as Abi, "mint", [to, amount]);
  const approveDollars = (owner: Address, spender: Address) => send(owner, stablecoin, testDollarAbi as Abi, "approve", [spender, maxUint256]);
  const approveNotes = (owner: Address, operator: Address) => send(owner, loanNote, loanNoteAbi as Abi, "setApprovalForAll", [operator, true]);
  const approved = new Set<string>();
  let salt = 1n;
  const chainId = await publicClient.getChainId();
  async function signOrder<Order extends object>(signer: Address, primaryType: keyof typeof ORDER_TYPES, order: Order, hashFn: string): Promise<Signed<Order>> {
    const wallet = wallets.get(signer.toLowerCase());
    if (!wallet) throw new Error(`no key for ${signer}`);
    const signature = await wallet.signTypedData({
      account: wallet.account!,
      domain: orderDomain(chainId, marketplace),
      types: ORDER_TYPES,
      primaryType,
      message: order as never,
    });
    const hash = (await publicClient.readContract({ address: marketplace, abi: noteMarketplaceAbi as Abi, functionName: hashFn, args: [order] })) as Hex;
    return { order, signature, hash };
  }
  async function orderDefaults(signer: Address) {
    const block = await publicClient.getBlock();
    const counter = (await publicClient.readContract({ address: marketplace, abi: noteMarketplaceAbi, functionName: "counterOf", args: [signer] })) as bigint;
    return { maxDaysPastDue: 0n, expiry: block.timestamp + 365n * 86_400n, salt: salt++, counter };
  }
  async function changesOf(tokenId: bigint): Promise<bigint> {
    const [, changes] = (await publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "ownershipOf", args: [tokenId] })) as readonly [Address, number, bigint];
    return BigInt(changes);
  }
  async function once(key: string, action: () => Promise<unknown>) {
    if (approved.has(key)) return;
    await action();
    approved.add(key);
  }

  const chain: TestChain = {
    anvil,
    rpcUrl: anvil.rpcUrl,
    deployment,
    publicClient,
    actors: { originator: addressOf.originator, treasury: addressOf.treasury, borrower: addressOf.borrower, investor: addressOf.investor, other: addressOf.other },
    async rpc(method, params = []) {
      return (await publicClient.request({ method: method as never, params: params as never })) as never;
    },
    originate: (tokenId, principal = 1_000_000_000n) => send(addressOf.originator, loanNote, loanNoteAbi as Abi, "originate", [tokenId, addressOf.borrower, principal, 1200, 12]),
    async list(tokenId, price, seller = addressOf.treasury) {
      await once(`notes:${seller}:${marketplace}`, () => approveNotes(seller, marketplace));
      return send(seller, marketplace, noteMarketplaceAbi as Abi, "list", [tokenId, price]);
    },
    updatePrice: (tokenId, price, seller = addressOf.treasury) => send(seller, marketplace, noteMarketplaceAbi as Abi, "updatePrice", [tokenId, price]),
    cancel: (tokenId, seller = addressOf.treasury) => send(seller, marketplace, noteMarketplaceAbi as Abi, "cancel", [tokenId]),
    async buy(tokenId, price, buyer = addressOf.investor) {
      await dollars(buyer, price);
      await once(`dollars:${buyer}:${marketplace}`, () => approveDollars(buyer, marketplace));
      return send(buyer, marketplace, noteMarketplaceAbi as Abi, "buy", [tokenId, price]);
    },
    transfer: (tokenId, from, to) => send(from, loanNote, loanNoteAbi as Abi, "transferFrom", [from, to, tokenId]),
    async deposit(tokenId, owner) {
      await once(`notes:${owner}:${vault}`, () => approveNotes(owner, vault));
      return send(owner, vault, noteVaultAbi as Abi, "deposit", [tokenId]);
    },
    withdrawFromVault: (tokenId, depositor, to = depositor) => send(depositor, vault, noteVaultAbi as Abi, "withdraw", [tokenId, to]),
    async repay(tokenId, amount, payer = addressOf.borrower) {
      await dollars(payer, amount);
      await once(`dollars:${payer}:${loanNote}`, () => approveDollars(payer, loanNote));
      return send(payer, loanNote, loanNoteAbi as Abi, "repay", [tokenId, amount]);
    },
    async markDefaulted(tokenId) {
      const grace = (await publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "gracePeriod" })) as bigint;
      const loan = (await publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "loanOf", args: [tokenId] })) as { start: bigint | number; termMonths: number };
      const block = await publicClient.getBlock();
      const due = BigInt(loan.start) + BigInt(loan.termMonths) * PERIOD_SECONDS + grace;
      if (block.timestamp <= due) await publicClient.request({ method: "evm_increaseTime" as never, params: [Number(due - block.timestamp + 1n)] as never });
      return send(addressOf.originator, loanNote, loanNoteAbi as Abi, "markDefaulted", [tokenId]);
    },
    withdrawCredits: (account) => send(account, loanNote, loanNoteAbi as Abi, "withdrawCredits", []),
    async signListing(tokenId, fields = {}, seller = addressOf.treasury) {
      const order: SignedListing = { seller, tokenId, price: 0n, parBps: 0n, changes: await changesOf(tokenId), ...(await orderDefaults(seller)), ...fields };
      return signOrder(seller, "Listing", order, "hashListing");
    },
    async signOffer(tokenId, fields = {}, buyer = addressOf.investor) {
      const order: SignedOffer = { buyer, tokenId, price: 0n, parBps: 0n, cap: maxUint256, changes: await changesOf(tokenId), ...(await orderDefaults(buyer)), ...fields };
      return signOrder(buyer, "Offer", order, "hashOffer");
    },
    async signMatchingOffer(fields = {}, buyer = addressOf.investor) {
      const order: SignedMatchingOffer = {
        buyer,
        parBps: 10_000n,
        minRateBps: 0n,
        maxRateBps: maxUint256,
        minTermLeft: 0n,
        maxTermLeft: maxUint256,
        minOutstanding: 0n,
        maxOutstanding: maxUint256,
        budget: 1_000_000_000_000n,
        ...(await orderDefaults(buyer)),
        ...fields,
      };
      return signOrder(buyer, "MatchingOffer", order, "hashMatchingOffer");
    },
    async fillListing(listing, maxPrice, buyer = addressOf.investor) {
      const seller = listing.order.seller;
      await once(`notes:${seller}:${marketplace}`, () => approveNotes(seller, marketplace));
      await dollars(buyer, maxPrice);
      await once(`dollars:${buyer}:${marketplace}`, () => approveDollars(buyer, marketplace));
      return send(buyer, marketplace, noteMarketplaceAbi as Abi, "fillListing", [listing.order, listing.signature, maxPrice]);
    },
    async acceptOffer(offer, holder, funds) {
      const buyer = offer.order.buyer;
      await once(`notes:${holder}:${marketplace}`, () => approveNotes(holder, marketplace));
      await dollars(buyer, funds);
      await once(`dollars:${buyer}:${marketplace}`, () => approveDollars(buyer, marketplace));
      return send(holder, marketplace, noteMarketplaceAbi as Abi, "acceptOffer", [offer.order, offer.signature, 0n]);
    },
    async acceptMatchingOffer(offer, tokenId, holder, funds) {
      const buyer = offer.order.buyer;
      await once(`notes:${holder}:${marketplace}`, () => approveNotes(holder, marketplace));
      await dollars(buyer, funds);
      await once(`dollars:${buyer}:${marketplace}`, () => approveDollars(buyer, marketplace));
      return send(holder, marketplace, noteMarketplaceAbi as Abi, "acceptMatchingOffer", [offer.order, offer.signature, tokenId, 0n]);
    },
    async refinance(tokenId, principal, lender = addressOf.investor, fields = {}) {
      await dollars(lender, principal);
      await once(`dollars:${lender}:${marketplace}`, () => approveDollars(lender, marketplace));
      const offer: SignedRefinanceOffer = { lender, tokenId, rateBps: 900n, termMonths: 12n, maxPrincipal: principal, ...(await orderDefaults(lender)), ...fields };
      const wallet = wallets.get(lender.toLowerCase());
      if (!wallet) throw new Error(`no key for ${lender}`);
      const signature = await wallet.signTypedData({ ...refinanceOfferTypedData("RefinanceOffer", chainId, marketplace, offer), account: wallet.account!, message: offer } as never);
      const acceptance = { principal, minNet: -(10n ** 15n), allowShorterTerm: false };
      return send(addressOf.borrower, marketplace, noteMarketplaceAbi as Abi, "acceptRefinanceOffer", [offer, signature, acceptance]);
    },
    cancelOrders: (signer, hashes) => send(signer, marketplace, noteMarketplaceAbi as Abi, "cancelOrders", [hashes]),
    incrementCounter: (signer) => send(signer, marketplace, noteMarketplaceAbi as Abi, "incrementCounter", []),
    async stop() {
      await anvil.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return chain;
}
