import { DEV_ACCOUNTS } from "./devAccounts";
import type { KycStatus, Role } from "./statuses";

/**
 * The demo logins `npm start` seeds on the local chain. Their passwords are in the
 * README, their wallets' keys are anvil's: on any other chain they exist nowhere, and an account with one of
 * these emails is refused (the email at registration, the whole database at start).
 */
export const DEMO_ACCOUNTS = [
  { label: "admin", email: "admin@loanmint.local", password: "Admin123!", role: "admin", key: DEV_ACCOUNTS.demoAdmin, kyc: "none", firstName: "Ada", lastName: "Admin" },
  { label: "borrower", email: "borrower@loanmint.local", password: "Borrower123!", role: "user", key: DEV_ACCOUNTS.demoBorrower, kyc: "approved", firstName: "Bob", lastName: "Borrower" },
  { label: "investor", email: "investor@loanmint.local", password: "Investor123!", role: "user", key: DEV_ACCOUNTS.demoInvestor, kyc: "approved", firstName: "Ivy", lastName: "Investor" },
] as const satisfies ReadonlyArray<{ label: "admin" | "borrower" | "investor"; role: Role; kyc: KycStatus } & Record<string, string>>;

/** Lowercase; emails are compared case-insensitively (users_email_lower_unique). */
export const DEMO_EMAILS: readonly string[] = DEMO_ACCOUNTS.map((account) => account.email);

export function isDemoEmail(email: string): boolean {
  return DEMO_EMAILS.includes(email.trim().toLowerCase());
}
