import { privateKeyToAccount } from "viem/accounts";
import type { Db } from "../db/connect";
import { users } from "../db/schema";
import { DEV_ACCOUNTS } from "../domain/devAccounts";
import type { KycStatus, Role } from "../domain/statuses";
import { hashPassword } from "../api/src/auth/passwords";
import { createUsersRepository } from "../api/src/users/repository";

export interface DemoLogin {
  role: "admin" | "borrower" | "investor";
  email: string;
  password: string;
  walletAddress: string;
}

const DEMO = [
  { label: "admin", email: "admin@loanmint.local", password: "Admin123!", role: "admin", key: DEV_ACCOUNTS.demoAdmin, kyc: "none", firstName: "Ada", lastName: "Admin" },
  { label: "borrower", email: "borrower@loanmint.local", password: "Borrower123!", role: "user", key: DEV_ACCOUNTS.demoBorrower, kyc: "approved", firstName: "Bob", lastName: "Borrower" },
  { label: "investor", email: "investor@loanmint.local", password: "Investor123!", role: "user", key: DEV_ACCOUNTS.demoInvestor, kyc: "approved", firstName: "Ivy", lastName: "Investor" },
] as const satisfies ReadonlyArray<{ label: DemoLogin["role"]; role: Role; kyc: KycStatus } & Record<string, string>>;

/**
 * The demo accounts of DESIGN.md "Running it", with the local dev wallets #5, #3, #4 already verified.
 * Idempotent: an account that exists (by email, or a wallet already linked elsewhere) is left as it is.
 */
export async function seedDemo(db: Db): Promise<DemoLogin[]> {
  const repository = createUsersRepository(db);
  const logins: DemoLogin[] = [];
  for (const account of DEMO) {
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
