import { privateKeyToAccount } from "viem/accounts";
import type { Db } from "#db/connect";
import { users } from "#db/schema";
import { DEMO_ACCOUNTS } from "#domain/demoAccounts";
import { hashPassword } from "#api/auth/passwords";
import { createUsersRepository } from "#api/users/repository";

export interface DemoLogin {
  role: "admin" | "borrower" | "investor";
  email: string;
  password: string;
  walletAddress: string;
}

/**
 * The demo accounts `npm start` seeds on the local chain, with the local dev wallets #5, #3, #4 already verified.
 * Local chain only: scripts/start.ts never calls it elsewhere, and the API refuses a database holding them there.
 * Idempotent: an account that exists (by email, or a wallet already linked elsewhere) is left as it is.
 */
export async function seedDemo(db: Db): Promise<DemoLogin[]> {
  const repository = createUsersRepository(db);
  const logins: DemoLogin[] = [];
  for (const account of DEMO_ACCOUNTS) {
    const walletAddress = privateKeyToAccount(account.key).address.toLowerCase();
    logins.push({ role: account.label, email: account.email, password: account.password, walletAddress });
    if (await repository.findByEmail(account.email)) continue;
    await db
      .insert(users)
      .values({
        email: account.email,
        passwordHash: await hashPassword(account.password),
        role: account.role,
        firstName: account.firstName,
        lastName: account.lastName,
        walletAddress,
        kycStatus: account.kyc,
      })
      .onConflictDoNothing();
  }
  return logins;
}
