import { network } from "hardhat";
import { getAddress, getContractAddress, maxUint256, type Address } from "viem";
import type { ServicingParams } from "#domain/lateFees";
import { DEFAULTS } from "../params";

/** Account indices of the fixture's wallets. Everyone above `firstUser` is a free test user. */
export const ROLES = { admin: 0, originator: 1, treasury: 2, borrower: 3, feeRecipient: 4, firstUser: 5 } as const;

/** The servicing parameters the fixture deploys LoanNote with, as domain/lateFees.ts takes them. */
export const SERVICING_PARAMS: ServicingParams = {
  gracePeriod: DEFAULTS.gracePeriodSeconds,
  lateFeeGracePeriod: BigInt(DEFAULTS.lateFeeGracePeriodSeconds),
  lateFeeBps: DEFAULTS.lateFeeBps,
  defaultAfterDays: DEFAULTS.defaultAfterDays,
};

/** Terms `mintNoteTo` originates with: $1,000 at 12% over 12 months. */
export const DEFAULT_TERMS = { principal: 1_000_000_000n, rateBps: 1200, termMonths: 12 } as const;

type Owner = Address | { account: { address: Address } };
const addressOf = (owner: Owner): Address => (typeof owner === "string" ? owner : owner.account.address);

/**
 * Deploys the test dollar, the note (and its vault) and the marketplace on a fresh in-process network, wired
 * as the real deploy wires them: the originator role granted, the treasury funded and approving the note
 * contract (stablecoin) and the marketplace (notes).
 */
export async function deployLoanNoteFixture() {
  const connection = await network.create();
  const { viem, networkHelpers } = connection;
  const publicClient = await viem.getPublicClient();
  const wallets = await viem.getWalletClients();
  const [admin, originator, treasury, borrower, feeRecipient] = [wallets[ROLES.admin], wallets[ROLES.originator], wallets[ROLES.treasury], wallets[ROLES.borrower], wallets[ROLES.feeRecipient]];

  const dollar = await viem.deployContract("TestDollar", [admin.account.address, DEFAULTS.faucetAmount, DEFAULTS.faucetCooldownSeconds]);
  // The marketplace, deployed right after the note contract, is its refinancer.
  const refinancer = getContractAddress({
    from: admin.account.address,
    nonce: BigInt(await publicClient.getTransactionCount({ address: admin.account.address })) + 1n,
  });
  const note = await viem.deployContract("LoanNote", [
    dollar.address,
    admin.account.address,
    treasury.account.address,
    DEFAULTS.gracePeriodSeconds,
    DEFAULTS.lateFeeGracePeriodSeconds,
    DEFAULTS.lateFeeBps,
    DEFAULTS.defaultAfterDays,
    refinancer,
  ]);
  const vault = await viem.getContractAt("NoteVault", await note.read.vault());
  const escrow = await viem.getContractAt("CollateralEscrow", await note.read.escrow());
  const marketplace = await viem.deployContract("NoteMarketplace", [
    note.address,
    dollar.address,
    admin.account.address,
    feeRecipient.account.address,
    DEFAULTS.feeBps,
    DEFAULTS.minRateImprovementBps,
  ]);
  if (getAddress(marketplace.address) !== getAddress(refinancer)) throw new Error("the marketplace is not the note's refinancer");

  await note.write.grantRole([await note.read.ORIGINATOR_ROLE(), originator.account.address]);
  await dollar.write.mint([treasury.account.address, DEFAULTS.treasuryFunding]);
  await dollar.write.approve([note.address, maxUint256], { account: treasury.account });
  await note.write.setApprovalForAll([marketplace.address, true], { account: treasury.account });

  let nextTokenId = 1n;

  /** Originates a note with DEFAULT_TERMS and moves it from the treasury to `owner`; returns its token id. */
  async function mintNoteTo(owner: Owner): Promise<bigint> {
    const tokenId = nextTokenId++;
    const { principal, rateBps, termMonths } = DEFAULT_TERMS;
    await note.write.originate([tokenId, borrower.account.address, principal, rateBps, termMonths], {
      account: originator.account,
    });
    const to = addressOf(owner);
    if (to.toLowerCase() !== treasury.account.address.toLowerCase()) {
      await note.write.transferFrom([treasury.account.address, to, tokenId], { account: treasury.account });
    }
    return tokenId;
  }

  return {
    connection,
    viem,
    networkHelpers,
    publicClient,
    wallets,
    accounts: { admin, originator, treasury, borrower, feeRecipient },
    note,
    marketplace,
    vault,
    escrow,
    dollar,
    mintNoteTo,
  };
}

export type LoanNoteFixture = Awaited<ReturnType<typeof deployLoanNoteFixture>>;
