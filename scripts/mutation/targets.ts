// Which TypeScript is mutated, and which test files run against each mutant. Only code on a path that
// moves money, grants a role or shows one user's data to another: the whole API suite is far too slow
// to run per mutant on a small machine, so each group names the few test files that cover it.

export type Part = "domain" | "api" | "indexer" | "contracts";

export interface TargetGroup {
  /** Short name, for `-- --only=<name>` and the report. */
  name: string;
  part: Exclude<Part, "contracts">;
  /** Files mutated; `file:from-to` limits mutation to those lines (Stryker's syntax). */
  mutate: string[];
  tests: string[];
  /** Only the tests whose names match (node's --test-name-pattern): the one test of a slow file that covers the code. */
  names?: string;
}

const routeTable = "api/src/security/routeTable.test.ts";
const notificationsRepository = "api/src/notifications/repository.test.ts";

export const TARGETS: TargetGroup[] = [
  { name: "money", part: "domain", mutate: ["domain/money.ts"], tests: ["domain/money.test.ts"] },
  { name: "schedule", part: "domain", mutate: ["domain/schedule.ts"], tests: ["domain/schedule.test.ts"] },
  {
    name: "yield",
    part: "domain",
    mutate: ["domain/noteYield.ts", "domain/payoffParts.ts", "domain/loanNoteStatus.ts"],
    tests: ["domain/noteYield.test.ts", "domain/payoffParts.test.ts", "domain/loanNoteStatus.test.ts"],
  },
  {
    name: "schemas",
    part: "domain",
    mutate: ["domain/schemas/loans.ts", "domain/schemas/nfts.ts", "domain/schemas/common.ts"],
    tests: ["domain/schemas/schemas.test.ts", "domain/schemas/loans.test.ts", "domain/schemas/common.test.ts", "domain/schemas/nftBands.test.ts", "api/src/loans/requests.test.ts"],
  },
  {
    name: "auth",
    part: "api",
    mutate: ["api/src/auth/service.ts", "api/src/auth/router.ts", "api/src/auth/tokens.ts", "api/src/auth/siwe.ts", "api/src/auth/wallets.ts"],
    tests: ["api/src/auth/auth.test.ts", "api/src/auth/wallet.test.ts", "api/src/security/jwt.test.ts"],
  },
  { name: "users", part: "api", mutate: ["api/src/users/service.ts", "api/src/users/router.ts", "api/src/users/repository.ts"], tests: ["api/src/users/users.test.ts", routeTable] },
  { name: "kyc", part: "api", mutate: ["api/src/kyc/service.ts", "api/src/kyc/router.ts", "api/src/kyc/repository.ts"], tests: ["api/src/kyc/kyc.test.ts", routeTable] },
  {
    name: "notifications",
    part: "api",
    mutate: ["api/src/notifications/service.ts", "api/src/notifications/router.ts", "api/src/notifications/repository.ts"],
    tests: [notificationsRepository, "api/src/notifications/notifications.test.ts", routeTable],
  },
  {
    name: "loans",
    part: "api",
    mutate: ["api/src/loans/service.ts", "api/src/loans/router.ts", "api/src/loans/repository.ts", "api/src/loans/lifecycle.ts"],
    tests: ["api/src/loans/requests.test.ts", "api/src/loans/approval.test.ts", "api/src/loans/chainStatus.test.ts"],
  },
  { name: "nfts", part: "api", mutate: ["api/src/nfts/service.ts", "api/src/nfts/router.ts", "api/src/nfts/repository.ts", "domain/permit.ts"], tests: ["api/src/nfts/nfts.test.ts"] },
  { name: "treasury", part: "api", mutate: ["api/src/treasury/service.ts"], tests: ["api/src/loans/approval.test.ts", "api/src/nfts/nfts.test.ts"] },
  {
    name: "handlers",
    part: "indexer",
    mutate: ["indexer/handlers/loanNote.ts", "indexer/handlers/marketplace.ts", "indexer/handlers/vault.ts"],
    tests: ["indexer/sync.test.ts", "indexer/finality.test.ts"],
  },
];

/**
 * Line ranges follow the code: re-read them when the file above them changes (on 2026-11-26 the buy range had
 * drifted onto `unlist`, the repayment ranges onto the relisting admin route; the NFT collateral moved the loan
 * schemas by 22 lines and the repayment by 12; the shorter PUT /list (a signed listing) moved buy up by 10 lines,
 * onto `transfer`, and the order notices' lookups pushed the notification page down by 19, onto the order signer;
 * then the loan timeline's escrow moves pushed the repayment down by 17 and the collection's name lookup the
 * notification page by 15, the escrow approval's condition the collateral approval and claimant by 3).
 *
 * `--focus`: the functions that move money or decide who may act, out of the large files above, for a run
 * that has an hour rather than a day (each mutant there costs a minute or two of API tests).
 */
export const FOCUSED_TARGETS: TargetGroup[] = [
  // The amounts a request may carry and the repayment's installment, against the domain's own tests.
  { name: "loan-schemas", part: "domain", mutate: ["domain/schemas/loans.ts:86-157"], tests: ["domain/schemas/schemas.test.ts", "domain/schemas/loans.test.ts"] },
  // Who may buy, at what price, with what money, until when, and the calls that pay; the answer (339-351) is left to
  // buy-list. The whole file runs (about 20 s): a name filter "buy" matched its suite's name, so all of it anyway.
  { name: "buy", part: "api", mutate: ["api/src/nfts/service.ts:292-337"], tests: ["api/src/nfts/nfts.test.ts"] },
  // Who may list and unlist, and what the buy answers (the buy's checks are the group above).
  { name: "buy-list", part: "api", mutate: ["api/src/nfts/service.ts:251-284", "api/src/nfts/service.ts:339-351"], tests: ["api/src/nfts/nfts.test.ts"] },
  // Whose loan may be repaid, when, and which installment.
  {
    name: "repayment-checks",
    part: "api",
    mutate: ["api/src/loans/service.ts:305-328"],
    tests: ["api/src/loans/approval.test.ts", "api/src/loans/requests.test.ts"],
    names: "repaid|repayment|permit|no other borrower",
  },
  // What is paid, from which wallet, until when, and the calls that pay (the checks above are repayment-checks'; the
  // schedule's figures in the answer, 363-372, are display): against the repayment tests of the approval file alone.
  { name: "repayment", part: "api", mutate: ["api/src/loans/service.ts:329-362"], tests: ["api/src/loans/approval.test.ts"], names: "repayment" },
  // Who is signed in and who is an admin: every route's gate.
  { name: "role-gate", part: "api", mutate: ["api/src/http/auth.ts:15-60", "api/src/auth/tokens.ts"], tests: ["api/src/security/jwt.test.ts"] },
  { name: "notifications-page", part: "api", mutate: ["api/src/notifications/repository.ts:72-110"], tests: [notificationsRepository, "api/src/notifications/notifications.test.ts"] },
  // Who is notified: the admins of a new request, the investors of a new listing, the signer of a filled order and the
  // borrower left out of their own note's listing news (exact ids in the repository test).
  { name: "recipients", part: "api", mutate: ["api/src/notifications/repository.ts:16-44", "api/src/notifications/repository.ts:61-70"], tests: [notificationsRepository] },
  // Who may pledge, have a pledge originated and take an escrowed NFT out: the pledge's checks, the
  // approval's live checks and the claimant, against the collateral suite's attacks.
  {
    name: "collateral-gate",
    part: "api",
    mutate: ["api/src/collateral/service.ts:127-133", "api/src/collateral/service.ts:185-200", "api/src/collateral/service.ts:220-255"],
    tests: ["api/src/collateral/collateral.test.ts"],
  },
  // The backfill test alone makes every vault move (in and out) and compares the mirror with the chain.
  { name: "vault-handlers", part: "indexer", mutate: ["indexer/handlers/vault.ts"], tests: ["indexer/sync.test.ts"], names: "^a backfill mirrors" },
];

/** `--quick`: a few lines of one group per part, enough to prove the tooling end to end in minutes. */
export const QUICK_TARGETS: TargetGroup[] = [
  { name: "money (quick)", part: "domain", mutate: ["domain/money.ts:17-24"], tests: ["domain/money.test.ts"] },
  { name: "notifications (quick)", part: "api", mutate: ["api/src/notifications/repository.ts:1-40"], tests: [notificationsRepository] },
  { name: "handlers (quick)", part: "indexer", mutate: ["indexer/handlers/vault.ts:29-34"], tests: ["indexer/sync.test.ts"], names: "^a backfill mirrors" },
];
