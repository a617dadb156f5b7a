import { createPublicClient, createWalletClient, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";

/**
 * The living demo: on a fresh local chain, a handful of loans go through the real flows over
 * HTTP — requests, approvals that fund, mint and list, notes bought by the demo investor with a permit, some
 * installments repaid, one loan paid off — so a first visitor finds a marketplace, a portfolio and an explorer
 * with history. It signs with the demo accounts' local dev keys, like a person would with the dev wallet.
 */
export interface DemoActor {
  email: string;
  password: string;
}

export interface LivingDemoOptions {
  /** The API's origin, e.g. http://localhost:5001. */
  baseUrl: string;
  rpcUrl: string;
  admin: DemoActor;
  borrower: DemoActor & { key: Hex };
  investor: DemoActor & { key: Hex };
  log?: (line: string) => void;
}

const LOANS = [
  { amount: "1500", interestRate: 7.5, termMonths: 6, purpose: "education" },
  { amount: "2500", interestRate: 9, termMonths: 12, purpose: "business" },
  { amount: "4000", interestRate: 11.5, termMonths: 12, purpose: "home_improvement" },
  { amount: "8000", interestRate: 6, termMonths: 24, purpose: "debt_consolidation" },
  { amount: "16000", interestRate: 13, termMonths: 36, purpose: "investment" },
];

export async function runLivingDemo(options: LivingDemoOptions): Promise<{ skipped: boolean; tokenIds: string[] }> {
  const log = options.log ?? (() => {});
  const chain = createPublicClient({ chain: foundry, transport: http(options.rpcUrl) });
  async function api(method: string, path: string, token?: string, body?: unknown) {
    const res = await fetch(`${options.baseUrl}/api${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json?.message}`);
    return json.data;
  }
  const login = async (actor: DemoActor): Promise<string> => (await api("POST", "/auth/login", undefined, { email: actor.email, password: actor.password })).token;
  async function send(key: Hex, call: { to: string; data: string }) {
    const wallet = createWalletClient({ account: privateKeyToAccount(key), chain: foundry, transport: http(options.rpcUrl) });
    const hash = await wallet.sendTransaction({ to: call.to as Address, data: call.data as Hex });
    const receipt = await chain.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`demo transaction reverted: ${hash}`);
    return receipt;
  }
  /** Waits until the mirror shows the block, so the next check reads what just happened. */
  const synced = (block: bigint) => api("GET", `/nfts/mirror?minBlock=${block}`);

  const [adminToken, borrowerToken, investorToken] = await Promise.all([login(options.admin), login(options.borrower), login(options.investor)]);
  const existing = await api("GET", "/loans/my-loans", borrowerToken);
  if ((existing.loans ?? []).length > 0) {
    log("demo loans exist already; leaving them as they are");
    return { skipped: true, tokenIds: [] };
  }
  for (const key of [options.borrower.key, options.investor.key]) {
    await api("POST", "/dev/faucet", undefined, { address: privateKeyToAccount(key).address });
  }

  const loans: { id: string; tokenId: string }[] = [];
  for (const request of LOANS) {
    const loan = await api("POST", "/loans/request", borrowerToken, request);
    const approved = await api("PUT", `/admin/loans/${loan._id}/approve`, adminToken, { adminNotes: "Demo loan" });
    loans.push({ id: loan._id, tokenId: String(approved.loanNumber ?? loan.loanNumber) });
  }
  log(`demo: ${loans.length} loans approved, funded, minted and listed`);

  // The investor buys the first three notes: a permit signature, then one buyWithPermit transaction each.
  const investor = privateKeyToAccount(options.investor.key);
  for (const { tokenId } of loans.slice(0, 3)) {
    const note = await api("GET", `/nfts/${tokenId}`);
    const offer = await api("POST", `/nfts/${tokenId}/buy`, investorToken, { expectedPrice: note.listingPrice });
    const m = offer.permit.message;
    const signature = await investor.signTypedData({
      domain: offer.permit.domain,
      types: offer.permit.types,
      primaryType: "Permit",
      message: { ...m, value: BigInt(m.value), nonce: BigInt(m.nonce), deadline: BigInt(m.deadline) },
    });
    const ready = await api("POST", `/nfts/${tokenId}/buy`, investorToken, { expectedPrice: note.listingPrice, signature, deadline: offer.deadline });
    await synced((await send(options.investor.key, ready.call)).blockNumber);
  }
  log("demo: the investor bought three notes");

  // The borrower repays: the first loan in full, two installments of the second, one of the fourth (the treasury's).
  async function repay(loanId: string, pick: (schedule: { monthlyPayment: string; payoffAmount: string }) => string) {
    const probe = await api("PUT", `/loans/${loanId}/repayment`, borrowerToken, { amount: "1" });
    const answer = await api("PUT", `/loans/${loanId}/repayment`, borrowerToken, { amount: pick(probe.schedule) });
    await send(options.borrower.key, answer.calls.approve);
    await synced((await send(options.borrower.key, answer.calls.repay)).blockNumber);
  }
  await repay(loans[0].id, (s) => s.payoffAmount);
  await repay(loans[1].id, (s) => s.monthlyPayment);
  await repay(loans[1].id, (s) => s.monthlyPayment);
  await repay(loans[3].id, (s) => s.monthlyPayment);
  log("demo: repayments made, one loan paid off");
  return { skipped: false, tokenIds: loans.map((l) => l.tokenId) };
}

/**
 * For `npm start` on a fresh ./data: the demo run with the seeded demo accounts (their logins as scripts/seed.ts
 * answers them) and their local dev keys (#5 admin, #3 borrower, #4 investor).
 */
export async function runLivingDemoForSeededAccounts(options: {
  baseUrl: string;
  rpcUrl: string;
  logins: { role: "admin" | "borrower" | "investor"; email: string; password: string }[];
  log?: (line: string) => void;
}) {
  const { DEV_ACCOUNTS } = await import("#domain/devAccounts");
  const find = (role: "admin" | "borrower" | "investor") => {
    const login = options.logins.find((l) => l.role === role);
    if (!login) throw new Error(`no seeded ${role} account`);
    return { email: login.email, password: login.password };
  };
  return runLivingDemo({
    baseUrl: options.baseUrl,
    rpcUrl: options.rpcUrl,
    admin: find("admin"),
    borrower: { ...find("borrower"), key: DEV_ACCOUNTS.demoBorrower },
    investor: { ...find("investor"), key: DEV_ACCOUNTS.demoInvestor },
    log: options.log,
  });
}
