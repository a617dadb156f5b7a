import type { UserRow } from "#db/schema";
import { conflict } from "../http/errors";
import { uniqueViolation, type UsersRepository } from "../users/repository";

export const WALLET_ANSWERS = {
  linked: "Wallet connected successfully!",
  signedIn: "Welcome back! Wallet connected",
  created: "Wallet account created",
  linkedElsewhere: "This wallet is already linked to another account",
} as const;

const short = (address: string) => `${address.slice(0, 6)}...${address.slice(-4)}`;

/** What a verified wallet does: link to the signed-in account, or sign its owner in (creating one the first time). */
export function createWalletAccounts(deps: { users: UsersRepository; now: () => Date }) {
  const { users } = deps;
  return {
    async link(user: UserRow, address: string): Promise<{ user: UserRow; message: string }> {
      const owner = await users.findByWallet(address);
      if (owner && owner.id !== user.id) throw conflict(WALLET_ANSWERS.linkedElsewhere);
      try {
        const updated = await users.update(user.id, { walletAddress: address });
        return { user: updated ?? user, message: WALLET_ANSWERS.linked };
      } catch (error) {
        if (uniqueViolation(error) !== null) throw conflict(WALLET_ANSWERS.linkedElsewhere);
        throw error;
      }
    },

    async signIn(address: string): Promise<{ user: UserRow; message: string }> {
      const owner = await users.findByWallet(address);
      if (owner) {
        const updated = await users.update(owner.id, { lastLoginAt: deps.now() });
        return { user: updated ?? owner, message: `${WALLET_ANSWERS.signedIn} ${short(address)}` };
      }
      try {
        const user = await users.insert({
          firstName: "Wallet",
          lastName: short(address),
          isWalletUser: true,
          walletAddress: address,
          lastLoginAt: deps.now(),
        });
        return { user, message: WALLET_ANSWERS.created };
      } catch (error) {
        // Two first sign-ins of one wallet at once: the other one created the account.
        if (uniqueViolation(error) === null) throw error;
        const existing = await users.findByWallet(address);
        if (!existing) throw error;
        return { user: existing, message: `${WALLET_ANSWERS.signedIn} ${short(address)}` };
      }
    },
  };
}
