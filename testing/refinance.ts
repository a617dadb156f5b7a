import { encodeFunctionData, maxUint256, type Address, type Hex, type PrivateKeyAccount } from "viem";
import { noteMarketplaceAbi, testDollarAbi } from "#domain/abis";
import { refinanceOfferTypedData, type SignedRefinanceOffer } from "#domain/refinanceOffers";
import { REFINANCED_ID_OFFSET } from "#domain/noteIds";
import { sendAs, type LoanStack } from "./loanStack";

let salt = 1n;

/**
 * Refinances `tokenId` directly against the contracts, as a lender and a borrower would without the API: the lender
 * lets the marketplace take its stablecoin and signs a one-loan offer with the domain's typed data, and the borrower
 * accepts it for `principal` (taking any net). By default 8% over 12 months, the cap `principal`.
 */
export async function refinanceOnChain(
  stack: LoanStack,
  lender: PrivateKeyAccount,
  borrower: PrivateKeyAccount,
  tokenId: bigint,
  principal: bigint,
  fields: Partial<SignedRefinanceOffer> = {},
): Promise<{ hash: Hex; newTokenId: bigint }> {
  const marketplace = stack.deployment.contracts.marketplace as Address;
  await sendAs(stack, lender, { to: stack.deployment.contracts.stablecoin, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [marketplace, maxUint256] }) });
  const block = await stack.chain.getBlock();
  const counter = await stack.chain.readContract({ address: marketplace, abi: noteMarketplaceAbi, functionName: "counterOf", args: [lender.address] });
  const offer: SignedRefinanceOffer = {
    lender: lender.address,
    tokenId,
    rateBps: 800n,
    termMonths: 12n,
    maxPrincipal: principal,
    maxDaysPastDue: 0n,
    expiry: block.timestamp + 86_400n,
    salt: salt++,
    counter,
    ...fields,
  };
  const typed = refinanceOfferTypedData("RefinanceOffer", stack.deployment.chainId, marketplace, offer);
  const signature = await lender.signTypedData({ ...typed, message: offer } as never);
  const acceptance = { principal, minNet: -(10n ** 15n), allowShorterTerm: false };
  const data = encodeFunctionData({ abi: noteMarketplaceAbi, functionName: "acceptRefinanceOffer", args: [offer, signature, acceptance] });
  return { hash: await sendAs(stack, borrower, { to: marketplace, data }), newTokenId: tokenId + REFINANCED_ID_OFFSET };
}
