import type { Address, Hex } from "viem";
import { PERMIT_TYPES, permitSignatureParts } from "#domain/permit";
import type { LoanNoteFixture } from "./fixtures";

type Wallet = LoanNoteFixture["wallets"][number];

/** Signs an ERC-2612 permit of the test dollar and returns the split signature the contracts take. */
export async function signPermit(f: LoanNoteFixture, owner: Wallet, spender: Address, value: bigint, deadline: bigint): Promise<{ v: number; r: Hex; s: Hex }> {
  const nonce = await f.dollar.read.nonces([owner.account.address]);
  const signature = await owner.signTypedData({
    account: owner.account,
    domain: { name: "Test Dollar", version: "1", chainId: await f.publicClient.getChainId(), verifyingContract: f.dollar.address },
    types: PERMIT_TYPES,
    primaryType: "Permit",
    message: { owner: owner.account.address, spender, value, nonce, deadline },
  });
  return permitSignatureParts(signature);
}

export async function now(f: LoanNoteFixture): Promise<bigint> {
  return (await f.publicClient.getBlock()).timestamp;
}

/** Gives `wallet` test dollars and approves `spender` for all of them. */
export async function fund(f: LoanNoteFixture, wallet: Wallet, amount: bigint, spender?: Address): Promise<void> {
  await f.dollar.write.mint([wallet.account.address, amount]);
  if (spender) await f.dollar.write.approve([spender, 2n ** 256n - 1n], { account: wallet.account });
}

export const DAY = 86_400n;
export const PERIOD = 30n * DAY;

/**
 * The fast-check seed of a random walk: fixed, so every run walks the same steps and an assertion that the walk
 * reached some place (a refusal, a fill) cannot pass on one run and fail on the next. PROPERTY_SEED=<integer>
 * walks another way; `seedHint` names the seed in a failure so that walk can be repeated.
 */
export function propertySeed(fixed: number): number {
  const chosen = process.env.PROPERTY_SEED;
  if (chosen === undefined || chosen.trim() === "") return fixed;
  const seed = Number(chosen);
  if (!Number.isSafeInteger(seed)) throw new Error(`PROPERTY_SEED must be an integer, not "${chosen}"`);
  return seed;
}

export const seedHint = (seed: number) => `(seed ${seed}; PROPERTY_SEED=${seed} repeats this walk)`;
