import { maxUint256, type Address } from "viem";
import { DEFAULT_TERMS, deployLoanNoteFixture } from "./fixtures";

/**
 * The note fixture plus the demo collection, allowed on the note contract's escrow, with pieces 1-3 held by the
 * borrower, who approved the escrow for all of them.
 */
export async function deployCollateralFixture() {
  const f = await deployLoanNoteFixture();
  const { admin, borrower, originator } = f.accounts;
  const art = await f.viem.deployContract("DemoCollection", [admin.account.address, 86_400n]);
  await f.escrow.write.allowCollection([art.address]);
  for (let i = 0; i < 3; i++) await art.write.mint([borrower.account.address]);
  await art.write.setApprovalForAll([f.escrow.address, true], { account: borrower.account });
  await f.dollar.write.mint([borrower.account.address, 10n ** 15n]);
  await f.dollar.write.approve([f.note.address, maxUint256], { account: borrower.account });

  let nextTokenId = 1_000n;
  /** Originates a note with DEFAULT_TERMS secured by piece `collateralId` of `collection`; returns the note's id. */
  async function originateSecured(collateralId: bigint, collection: Address = art.address, tokenId = nextTokenId++): Promise<bigint> {
    const { principal, rateBps, termMonths } = DEFAULT_TERMS;
    await f.note.write.originateWithCollateral([tokenId, borrower.account.address, principal, rateBps, termMonths, collection, collateralId], { account: originator.account });
    return tokenId;
  }
  /** Moves the loan past maturity plus grace and records the default. */
  async function defaultLoan(tokenId: bigint): Promise<void> {
    const loan = await f.note.read.loanOf([tokenId]);
    const availableAt = BigInt(loan.start) + BigInt(loan.termMonths) * 30n * 86_400n + (await f.note.read.gracePeriod());
    const latest = (await f.publicClient.getBlock()).timestamp;
    if (latest < availableAt) await f.networkHelpers.time.increaseTo(availableAt);
    await f.note.write.markDefaulted([tokenId], { account: originator.account });
  }
  return { ...f, art, originateSecured, defaultLoan };
}

export type CollateralFixture = Awaited<ReturnType<typeof deployCollateralFixture>>;
