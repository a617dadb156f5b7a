import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, createTestClient, createWalletClient, getContract, http, maxUint256, parseSignature, type Abi, type Address, type Hash, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { readFileSync } from "node:fs";
import { collateralEscrowAbi, demoCollectionAbi, loanNoteAbi, noteMarketplaceAbi, noteVaultAbi, testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS, FREE_DEV_KEYS } from "#domain/devAccounts";
import { ORDER_TYPES, orderDomain } from "#domain/orders";
import { refinanceOfferTypedData } from "#domain/refinanceOffers";
import { startAnvil } from "#devchain/anvil";
import { deployAll } from "#contracts/deploy";
import { DEFAULTS } from "#contracts/params";

// Prints `<action> <gas>` (total transaction gas, 21,000 base included) for every user-facing action, in the
// steady state: buyer, seller, fee recipient, borrower and holder already hold balances, notes and credits.
const chain = await startAnvil();
const dataDir = mkdtempSync(join(tmpdir(), "loanmint-gas-"));
try {
  const transport = http(chain.rpcUrl);
  const client = createPublicClient({ transport });
  const deployment = await deployAll({ rpcUrl: chain.rpcUrl, dataDir });
  const { loanNote, marketplace, vault, collateralEscrow, stablecoin, demoCollection } = deployment.contracts as Record<keyof typeof deployment.contracts, Address>;
  const viemChain = { id: 31337, name: "anvil", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [chain.rpcUrl] } } };

  const account = (key: Hex) => privateKeyToAccount(key);
  const admin = account(DEV_ACCOUNTS.deployer);
  const originator = account(DEV_ACCOUNTS.originator);
  const treasury = account(DEV_ACCOUNTS.treasury);
  const borrower = account(DEV_ACCOUNTS.demoBorrower);
  const buyer = account(DEV_ACCOUNTS.demoInvestor);
  const holder = account(FREE_DEV_KEYS[0]);
  const permitBuyer = account(FREE_DEV_KEYS[1]);
  const feeRecipient = account(FREE_DEV_KEYS[2]);

  /** The gas a sent transaction used, once mined. */
  async function gas(sent: Promise<Hash>): Promise<bigint> {
    const receipt = await client.waitForTransactionReceipt({ hash: await sent });
    if (receipt.status !== "success") throw new Error(`${receipt.transactionHash} reverted`);
    return receipt.gasUsed;
  }
  /** The contracts as one account sends to them, typed by their ABIs. */
  function as(from: PrivateKeyAccount) {
    const clients = { public: client, wallet: createWalletClient({ account: from, chain: viemChain, transport }) };
    return {
      note: getContract({ address: loanNote, abi: loanNoteAbi, client: clients }).write,
      market: getContract({ address: marketplace, abi: noteMarketplaceAbi, client: clients }).write,
      dollar: getContract({ address: stablecoin, abi: testDollarAbi, client: clients }).write,
      vault: getContract({ address: vault, abi: noteVaultAbi, client: clients }).write,
      art: getContract({ address: demoCollection, abi: demoCollectionAbi, client: clients }).write,
      escrow: getContract({ address: collateralEscrow, abi: collateralEscrowAbi, client: clients }).write,
    };
  }
  /** The plain OpenZeppelin ERC-721 of the baseline, whose ABI comes from its artifact. */
  const sendBaseline = (from: PrivateKeyAccount, address: Address, abi: Abi, functionName: string, args: readonly unknown[]) =>
    gas(createWalletClient({ account: from, chain: viemChain, transport }).writeContract({ address, abi, functionName, args }));
  const testClient = createTestClient({ mode: "anvil", transport });
  const increaseTime = async (seconds: number) => {
    await testClient.increaseTime({ seconds });
    await testClient.mine({ blocks: 1 });
  };
  async function permit(owner: PrivateKeyAccount, spender: Address, value: bigint) {
    const nonce = await client.readContract({ address: stablecoin, abi: testDollarAbi, functionName: "nonces", args: [owner.address] });
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 86_400 * 400);
    const signature = await owner.signTypedData({
      domain: { name: "Test Dollar", version: "1", chainId: 31337, verifyingContract: stablecoin },
      types: {
        Permit: [
          { name: "owner", type: "address" },
          { name: "spender", type: "address" },
          { name: "value", type: "uint256" },
          { name: "nonce", type: "uint256" },
          { name: "deadline", type: "uint256" },
        ],
      },
      primaryType: "Permit",
      message: { owner: owner.address, spender, value, nonce, deadline },
    });
    const { r, s, v, yParity } = parseSignature(signature);
    return [deadline, v !== undefined ? Number(v) : yParity + 27, r, s] as const;
  }

  const principal = 1_000_000_000n;
  let nextId = 1n;
  const originate = () => gas(as(originator).note.originate([nextId++, borrower.address, principal, 1200, 12]));
  const results: [string, bigint][] = [];

  // Steady state: every party already holds test dollars and notes; the fee goes to a third account.
  await gas(as(admin).market.setFee([feeRecipient.address, 100]));
  for (const who of [borrower, buyer, holder, permitBuyer, feeRecipient]) await gas(as(admin).dollar.mint([who.address, 1_000_000_000_000n]));
  await gas(as(borrower).dollar.approve([loanNote, maxUint256]));
  await gas(as(buyer).dollar.approve([marketplace, maxUint256]));
  for (let i = 0; i < 6; i++) await originate();
  for (const id of [1n, 2n, 3n]) await gas(as(treasury).note.transferFrom([treasury.address, holder.address, id]));
  await gas(as(treasury).note.transferFrom([treasury.address, buyer.address, 4n]));
  await gas(as(treasury).note.transferFrom([treasury.address, permitBuyer.address, 5n]));
  await gas(as(borrower).note.repay([1n, 1_000_000n])); // holder has credits not yet withdrawn

  results.push(["originate", await originate()]);
  const listed = nextId - 1n;
  results.push(["list", await gas(as(treasury).market.list([listed, principal]))]);
  results.push(["buy", await gas(as(buyer).market.buy([listed, principal]))]);
  await originate();
  await gas(as(treasury).market.list([nextId - 1n, principal]));
  results.push(["buyWithPermit", await gas(as(permitBuyer).market.buyWithPermit([nextId - 1n, principal, ...(await permit(permitBuyer, marketplace, principal))]))]);

  // Signed orders (#19): signing costs nothing; each line is the one fill transaction. Seaport's basic fill of one
  // ERC-721 for an ERC-20 is about 91,000 gas, the anchor these compare with.
  let salt = 1n;
  const expiry = BigInt(Math.floor(Date.now() / 1000) + 86_400 * 400);
  async function signed<Fields extends Record<string, unknown>>(signer: PrivateKeyAccount, primaryType: keyof typeof ORDER_TYPES, fields: Fields) {
    const order = { expiry, salt: salt++, counter: 0n, maxDaysPastDue: 0n, ...fields };
    const signature = await signer.signTypedData({ domain: orderDomain(31337, marketplace), types: ORDER_TYPES, primaryType, message: order as never });
    return [order, signature] as const;
  }
  const changesOf = async (tokenId: bigint) => BigInt((await client.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "ownershipOf", args: [tokenId] }))[1]);
  const listing = async (tokenId: bigint, parBps: bigint) =>
    signed(treasury, "Listing", { seller: treasury.address, tokenId, price: parBps === 0n ? principal : 0n, parBps, changes: await changesOf(tokenId) });
  const offer = async (tokenId: bigint, parBps: bigint) =>
    signed(buyer, "Offer", { buyer: buyer.address, tokenId, price: parBps === 0n ? principal : 0n, parBps, cap: principal, changes: await changesOf(tokenId) });
  for (let i = 0; i < 7; i++) await originate();
  const ids = Array.from({ length: 7 }, (_, i) => nextId - 7n + BigInt(i));
  results.push(["anchor: Seaport basic fill (about)", 91_000n]);
  results.push(["fill listing", await gas(as(buyer).market.fillListing([...(await listing(ids[0], 0n)), principal]))]);
  results.push(["fill listing at par", await gas(as(buyer).market.fillListing([...(await listing(ids[1], 10_000n)), 2n * principal]))]);
  results.push([
    "fill listing with permit",
    await gas(as(permitBuyer).market.fillListingWithPermit([...(await listing(ids[2], 0n)), principal, ...(await permit(permitBuyer, marketplace, principal))])),
  ]);
  results.push(["accept offer", await gas(as(treasury).market.acceptOffer([...(await offer(ids[3], 0n)), 0n]))]);
  results.push(["accept offer at par", await gas(as(treasury).market.acceptOffer([...(await offer(ids[4], 9_800n)), 0n]))]);
  const [matching, matchingSignature] = await signed(buyer, "MatchingOffer", {
    buyer: buyer.address,
    parBps: 9_700n,
    minRateBps: 1_000n,
    maxRateBps: 1_500n,
    minTermLeft: 0n,
    maxTermLeft: 400n * 86_400n,
    minOutstanding: 0n,
    maxOutstanding: principal,
    budget: 10n * principal,
  });
  results.push(["accept matching offer", await gas(as(treasury).market.acceptMatchingOffer([matching, matchingSignature, ids[5], 0n]))]);
  results.push(["accept matching offer (again)", await gas(as(treasury).market.acceptMatchingOffer([matching, matchingSignature, ids[6], 0n]))]);

  // A note whose schedule a fill reads: ownershipOf skips it in a note's first period, so the fresh notes above
  // do not show its cost. This one is filled in its second period, its first installment paid.
  const paidUp = nextId;
  await originate();
  const refinanceable = nextId; // held by `holder`, who has credits; refinanced at the end
  await originate();
  await gas(as(treasury).note.transferFrom([treasury.address, holder.address, refinanceable]));

  await increaseTime(30 * 86_400);
  const payment = await client.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "monthlyPayment", args: [2n] });
  results.push(["repay (one installment)", await gas(as(borrower).note.repay([2n, payment]))]);
  results.push(["repayWithPermit", await gas(as(holder).note.repayWithPermit([3n, payment, ...(await permit(holder, loanNote, payment))]))]);
  results.push(["repay (final, burning)", await gas(as(borrower).note.repay([1n, 2n * principal]))]);

  results.push(["deposit", await gas(as(holder).note.safeTransferFrom([holder.address, vault, 2n]))]);
  results.push(["withdraw", await gas(as(holder).vault.withdraw([2n, holder.address]))]);
  results.push(["withdraw credits", await gas(as(holder).note.withdrawCredits())]);
  await gas(as(borrower).note.repay([paidUp, payment]));
  results.push(["fill listing (note past its first due date, paid up)", await gas(as(buyer).market.fillListing([...(await listing(paidUp, 0n)), principal]))]);

  // NFT collateral (#20), with the demo collection (a plain OpenZeppelin ERC-721) in the steady state: the borrower
  // still holds other pieces and the escrow already holds some. Anchors: Gondi's loan start about 232,000 gas; NFTfi's
  // and Arcade's 527,000 to 1,010,000.
  await gas(as(borrower).art.setApprovalForAll([collateralEscrow, true]));
  for (let i = 0; i < 4; i++) await gas(as(admin).art.mint([borrower.address])); // pieces 4-7 (the deploy gave 1-3)
  await gas(as(admin).art.mint([treasury.address])); // piece 8: the claimant already holds a piece, as every party here
  const secured = (piece: bigint) => gas(as(originator).note.originateWithCollateral([100n + piece, borrower.address, principal, 1200, 12, demoCollection, piece]));
  await secured(5n); // the escrow holds a piece from now on
  await secured(4n); // refinanced below, a month after the next secured loan's payoff
  const refinanceableSecured = 104n;
  await gas(as(treasury).note.transferFrom([treasury.address, holder.address, refinanceableSecured]));
  await gas(as(borrower).note.repay([105n, 1_000_000n])); // the treasury (note 107's holder) has credits not yet withdrawn
  await secured(6n); // defaults below
  results.push(["anchor: Gondi loan start (about)", 232_000n]);
  results.push(["anchor: NFTfi/Arcade loan start (from)", 527_000n]);
  results.push(["originate with collateral", await secured(7n)]);
  await increaseTime(30 * 86_400); // an early payoff a month in, as `repay (final, burning)`
  results.push(["repay (final, returning collateral)", await gas(as(borrower).note.repay([107n, 2n * principal]))]);
  // Both loans are made current (what is due now, a late fee included) before they are refinanced.
  for (const id of [refinanceableSecured, refinanceable]) {
    await gas(as(borrower).note.repay([id, await client.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "amountDueNow", args: [id] })]));
  }
  // Refinancing: the borrower accepts a lender's signed offer in one transaction. The loans were originated in
  // the same block as the ones above and are refinanced here, past their first installment (paid), with the new
  // principal above the payoff (the cash out is paid to the borrower); the lender and the old holder already hold
  // notes, balances and credits. Anchor: Gondi's loan start, above.
  const refinanceOffer = async (tokenId: bigint) => {
    const offer = { lender: buyer.address, tokenId, rateBps: 900n, termMonths: 12n, maxPrincipal: principal, maxDaysPastDue: 0n, expiry, salt: salt++, counter: 0n };
    const typed = refinanceOfferTypedData("RefinanceOffer", 31337, marketplace, offer);
    return [offer, await buyer.signTypedData(typed as never)] as const;
  };
  const acceptance = { principal, minNet: 0n, allowShorterTerm: false };
  results.push(["refinance", await gas(as(borrower).market.acceptRefinanceOffer([...(await refinanceOffer(refinanceable)), acceptance]))]);
  results.push(["refinance with collateral", await gas(as(borrower).market.acceptRefinanceOffer([...(await refinanceOffer(refinanceableSecured)), acceptance]))]);

  await increaseTime(400 * 86_400);
  await gas(as(originator).note.markDefaulted([106n]));
  results.push(["claim collateral", await gas(as(treasury).escrow.claimCollateral([106n, treasury.address]))]);

  // Late fees and default by days past due: two fresh notes in the treasury (which holds credits already), the first
  // repaid for the first time as note 2 above but at its first installment's late-fee time, the second defaulted
  // once its first installment is 90 days past due.
  const [late, unpaid] = [nextId, nextId + 1n];
  await originate();
  await originate();
  await increaseTime(Number(30n * 86_400n + BigInt(DEFAULTS.lateFeeGracePeriodSeconds)));
  const lateFee = (payment * BigInt(DEFAULTS.lateFeeBps)) / 10_000n;
  results.push(["repay (installment with late fee)", await gas(as(borrower).note.repay([late, payment + lateFee]))]);
  await increaseTime((DEFAULTS.defaultAfterDays - 15) * 86_400);
  results.push(["markDefaulted (days past due)", await gas(as(originator).note.markDefaulted([unpaid]))]);

  // Baseline: a plain OpenZeppelin ERC-721, mint to and transfer between accounts that already hold one.
  const baseline = JSON.parse(readFileSync(new URL("../artifacts/contracts/test-only/BaselineERC721.sol/BaselineERC721.json", import.meta.url), "utf8"));
  const adminWallet = createWalletClient({ account: admin, chain: viemChain, transport });
  const deployHash = await adminWallet.deployContract({ abi: baseline.abi, bytecode: baseline.bytecode, account: admin, chain: viemChain });
  const base = (await client.waitForTransactionReceipt({ hash: deployHash })).contractAddress!;
  await sendBaseline(admin, base, baseline.abi, "mint", [holder.address, 1n]);
  await sendBaseline(admin, base, baseline.abi, "mint", [buyer.address, 2n]);
  results.push(["baseline OZ ERC-721 mint", await sendBaseline(admin, base, baseline.abi, "mint", [holder.address, 3n])]);
  results.push(["baseline OZ ERC-721 transferFrom", await sendBaseline(holder, base, baseline.abi, "transferFrom", [holder.address, buyer.address, 3n])]);

  for (const [action, gas] of results) console.log(`${action} ${gas}`);
} finally {
  await chain.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
