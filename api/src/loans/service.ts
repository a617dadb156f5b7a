import { randomInt } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { encodeFunctionData, type Address, type Hex } from "viem";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { LOAN_NOTE_STATUS } from "#domain/loanNoteStatus";
import { permitSignatureParts, permitTypedData } from "#domain/permit";
import { formatUsdAmount } from "#domain/money";
import { SERVER_EVENTS, ROOMS } from "#domain/events";
import { amountDueNow, installmentsPaid, isValidTerms, monthlyPayment, nextDueDate, outstandingBalance, type LoanTerms } from "#domain/schedule";
import { amountDueWithFees, lateFeesOwed, payoffWithFees, splitRepayment, type ServicedLoan, type ServicingParams } from "#domain/lateFees";
import type { FeeParams } from "#domain/servicingRecord";
import {
  COLLATERAL_MESSAGES,
  fundingWithinRequest,
  LOAN_MESSAGES,
  STANDARD_PURPOSES,
  type LoanApprovalInput,
  type LoanListQuery,
  type LoanRejectionInput,
  type LoanRequestInput,
  type RepaymentInput,
} from "#domain/schemas/loans";
import { loans, users as usersTable, type LoanRow, type UserRow } from "#db/schema";
import type { Db } from "#db/connect";
import { AppError, badRequest, conflict, forbidden, notFound } from "../http/errors";
import type { Notifier } from "../notifications/notifier";
import type { UsersRepository } from "../users/repository";
import { describeChainError, type ChainGateway } from "../chain/gateway";
import type { Origination } from "./origination";
import type { ChainMoment, LoansRepository, LoanView } from "./repository";
import { LOAN_ANSWERS, NOTIFY, TIMELINE_NOTES } from "./texts";
import { bindDeps } from "../deps";
import { NOTIFICATION_TEXTS } from "../notifications/texts";
import { chainNow } from "../chain/chainClock";
import { lateFeeParamsOf, NO_LATE_FEES } from "../chain/lateFeeParams";
import { readServicingParams } from "../chain/servicingParams";
import { collateralTimeline, toWireLoan, toWireTimeline, type WireLoan, type WireTimelineEntry } from "./wire";
import type { CollateralService } from "../collateral/service";

export interface LoansServiceDeps {
  db: Db;
  repo: LoansRepository;
  users: UsersRepository;
  chain: ChainGateway;
  origination: Origination;
  notifier: Notifier;
  /** A pledged NFT's checks: the request's against the mirror, the approval's live. */
  collateral: Pick<CollateralService, "checkPledge" | "checkOrigination">;
  /** Requests one borrower may have awaiting review at once (RateLimits.pendingLoanRequests). */
  maxPendingRequests: number;
}

const name = (user: Pick<UserRow, "firstName" | "lastName" | "email">) => `${user.firstName} ${user.lastName}`.trim() || user.email || "a borrower";
const isAdmin = (user: UserRow) => user.role === "admin";
const PERMIT_TTL_SECONDS = 3600;

/** The deployment's late-fee terms for loans' figures: none needed (nor read) before any of them has a note. */
async function feesFor(deps: LoansServiceDeps, views: LoanView[]): Promise<FeeParams> {
  if (!views.some((view) => view.loan.mintStatus === "minted")) return NO_LATE_FEES;
  const deployment = await deps.chain.deployment().catch(() => null);
  return lateFeeParamsOf(deps.chain.publicClient, deployment);
}

/** A list's loans as the client reads them, the late-fee terms read once for all of them. */
async function wireAll(deps: LoansServiceDeps, views: LoanView[]): Promise<WireLoan[]> {
  const fees = feesFor(deps, views);
  return Promise.all(views.map((view) => wire(deps, view, false, fees)));
}

async function wire(deps: LoansServiceDeps, view: LoanView, withTimeline = false, terms = feesFor(deps, [view])): Promise<WireLoan> {
  const { repo } = deps;
  const [nowSeconds, fees] = await Promise.all([chainNow(deps.chain.publicClient), terms]);
  if (!withTimeline) return toWireLoan(view, { nowSeconds, fees });
  const [events, collateral] = await Promise.all([repo.events(view.loan.id), collateralEntries(deps, view)]);
  // Decisions and the escrow's moves in one order of time (a sort keeps equal times in their given order).
  const timeline = [...toWireTimeline(events), ...collateral].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return toWireLoan(view, { timeline, nowSeconds, fees });
}

/** The escrow's moves of the loan's note, timed by their blocks: the mirror's times, else the node's blocks. */
async function collateralEntries(deps: LoansServiceDeps, view: LoanView): Promise<WireTimelineEntry[]> {
  if (view.loan.mintStatus !== "minted" || view.pledge.chainState === null) return [];
  const history = await deps.repo.collateralHistory(view.loan.loanNumber);
  if (!history) return [];
  const timed = async <T extends ChainMoment | null>(moment: T): Promise<T> => {
    if (!moment || moment.time) return moment;
    const block = await deps.chain.publicClient.getBlock({ blockNumber: BigInt(moment.block) }).catch(() => null);
    return { ...moment, time: block ? new Date(Number(block.timestamp) * 1000) : null };
  };
  const [locked, closed, burn] = await Promise.all([timed(history.locked), timed(history.closed), timed(history.burn)]);
  return collateralTimeline({ ...history, locked, closed, burn }, view.pledge.collectionName, view.loan.refinancedFrom !== null);
}

export async function wireById(deps: LoansServiceDeps, id: string, withTimeline = true): Promise<WireLoan> {
  const { repo } = deps;
  const view = await repo.view(id);
  if (!view) throw notFound(LOAN_ANSWERS.notFound);
  return wire(deps, view, withTimeline);
}

export async function page(deps: LoansServiceDeps, query: LoanListQuery, userId?: string) {
  const { repo } = deps;
  const { views, total } = await repo.list(query, userId);
  return {
    loans: await wireAll(deps, views),
    pagination: { page: query.page, limit: query.limit, totalPages: Math.max(1, Math.ceil(total / query.limit)), totalLoans: total, total },
  };
}

/** A loan the user may see: their own, or any for an admin; someone else's is answered as not found. */
async function readable(deps: LoansServiceDeps, user: UserRow, id: string): Promise<LoanView> {
  const { repo } = deps;
  const view = await repo.view(id);
  if (!view || (view.loan.userId !== user.id && !isAdmin(user))) throw notFound(LOAN_ANSWERS.notFound);
  return view;
}

/** `maxPending` caps the borrower's requests awaiting review; an admin's demo request is not capped. */
async function createRequest(deps: LoansServiceDeps, borrower: UserRow, input: LoanRequestInput, actor: UserRow, note: string, maxPending?: number) {
  const { repo, notifier } = deps;
  const loan = await repo.insert(
    {
      userId: borrower.id,
      amount: input.amount,
      purpose: input.purpose,
      rateBps: input.interestRate,
      termMonths: input.termMonths,
      collateral: input.collateral ? { type: input.collateral.type, value: input.collateral.value.toString(), description: input.collateral.description } : null,
      collateralCollection: input.collateral?.nft?.collection ?? null,
      collateralTokenId: input.collateral?.nft?.tokenId ?? null,
    },
    { action: "requested", actorId: actor.id, notes: note },
    maxPending,
  );
  if (loan === "pledged") throw badRequest(COLLATERAL_MESSAGES.alreadyPledged);
  if (!loan) throw badRequest(LOAN_MESSAGES.pendingCap(maxPending!));
  const amount = formatUsdAmount(loan.amount);
  const payload = { status: "pending" as const, amount, loanId: loan.id, tokenId: loan.loanNumber.toString() };
  const text = NOTIFY.loanRequest(loan.amount, name(borrower));
  await notifier.notifyAdmins(
    { type: "loan_request", ...text, link: `/admin/request?loan=${loan.id}`, about: { loanId: loan.id } },
    { name: SERVER_EVENTS.adminNotification, payload: { type: "loan_request", message: text.message, loanId: loan.id } },
  );
  notifier.publish(ROOMS.admins, { name: SERVER_EVENTS.loanRequestSubmitted, payload });
  notifier.publish(ROOMS.admins, { name: SERVER_EVENTS.loanNew, payload });
  return wireById(deps, loan.id);
}

/** The borrower's verified wallet and approved KYC, refused with a clear message each. */
function checkBorrower(user: UserRow) {
  if (user.kycStatus !== "approved") throw new AppError(403, LOAN_ANSWERS.kycRequired);
  if (!user.walletAddress) throw badRequest(LOAN_ANSWERS.walletRequired);
}

async function decided(deps: LoansServiceDeps, loan: LoanRow | undefined, id: string): Promise<LoanRow> {
  const { repo } = deps;
  if (loan) return loan;
  if (!(await repo.findById(id))) throw notFound(LOAN_ANSWERS.notFound);
  throw conflict(LOAN_ANSWERS.notPending);
}

export async function request(deps: LoansServiceDeps, user: UserRow, input: LoanRequestInput) {
  if (user.kycStatus !== "approved") throw new AppError(403, LOAN_ANSWERS.kycRequired);
  // A pledged piece is checked first, so a borrower without a wallet hears what a pledge needs.
  if (input.collateral?.nft) await deps.collateral.checkPledge(user, input.collateral.nft);
  checkBorrower(user);
  return createRequest(deps, user, input, user, "Requested by the borrower", deps.maxPendingRequests);
}

/** POST /loans (admin): a real pending request with random values for the demo borrower. */
export async function demo(deps: LoansServiceDeps, admin: UserRow) {
  const { users } = deps;
  const demoUser =
    (await users.findByEmail("borrower@loanmint.local")) ??
    (
      await deps.db
        .select()
        .from(usersTable)
        .where(and(eq(usersTable.role, "user"), eq(usersTable.kycStatus, "approved"), sql`${usersTable.walletAddress} is not null`))
        .limit(1)
    )[0];
  if (!demoUser || demoUser.kycStatus !== "approved" || !demoUser.walletAddress) throw badRequest(LOAN_ANSWERS.noDemoBorrower);
  const input: LoanRequestInput = {
    amount: BigInt(randomInt(1, 50)) * 1_000_000_000n,
    purpose: STANDARD_PURPOSES[randomInt(STANDARD_PURPOSES.length)],
    interestRate: randomInt(5, 21) * 50,
    termMonths: [6, 12, 18, 24, 36][randomInt(5)],
    collateral: undefined,
  };
  return createRequest(deps, demoUser, input, admin, "Demo request created by an admin");
}

export async function mine(deps: LoansServiceDeps, user: UserRow, query: LoanListQuery) {
  return page(deps, query, user.id);
}

export async function get(deps: LoansServiceDeps, user: UserRow, id: string) {
  return wire(deps, await readable(deps, user, id), true);
}

export async function stats(deps: LoansServiceDeps) {
  const { repo } = deps;
  const totals = await repo.statusTotals();
  const byStatus: Record<string, { count: number; amount: string }> = {};
  for (const status of ["pending", "approved", "active", "completed", "rejected", "defaulted"]) byStatus[status] = { count: 0, amount: "0" };
  let totalRequests = 0;
  let totalAmount = 0n;
  for (const t of totals) {
    byStatus[t.status] = { count: t.count, amount: formatUsdAmount(t.amount) };
    totalRequests += t.count;
    totalAmount += t.amount;
  }
  const recent = await repo.recent(5);
  return {
    totalRequests,
    totalAmount: formatUsdAmount(totalAmount),
    byStatus,
    recentRequests: await wireAll(deps, recent),
  };
}

export async function approve(deps: LoansServiceDeps, admin: UserRow, id: string, input: LoanApprovalInput) {
  const { repo, users, origination, notifier } = deps;
  const loan = await repo.findById(id);
  if (!loan) throw notFound(LOAN_ANSWERS.notFound);
  if (loan.status !== "pending") throw conflict(LOAN_ANSWERS.notPending);
  const borrower = await users.findById(loan.userId);
  if (!borrower?.walletAddress) throw badRequest(LOAN_ANSWERS.borrowerNoWallet);
  const wallet = input.walletAddress?.toLowerCase() ?? borrower.walletAddress;
  if (wallet !== borrower.walletAddress) throw badRequest(LOAN_ANSWERS.walletMismatch);
  const principal = input.fundingAmount ?? loan.amount;
  if (!fundingWithinRequest(principal, loan.amount)) throw badRequest(LOAN_ANSWERS.fundingAboveAmount);
  if (!isValidTerms({ principal, rateBps: loan.rateBps, termMonths: loan.termMonths })) throw badRequest(LOAN_ANSWERS.invalidTerms);
  // A pledged piece is checked live before anything changes: a refusal (409) leaves the request pending.
  await deps.collateral.checkOrigination(loan, wallet);
  // The conditional update is the lock: of two approvals at once, one finds the loan pending.
  const claimed = await decided(
    deps,
    await repo.transition(
      id,
      eq(loans.status, "pending"),
      { status: "approved", mintStatus: "minting", principal, borrowerWallet: wallet, approvedBy: admin.id, approvalDate: new Date(), adminNotes: input.adminNotes ?? null },
      { action: "approved", actorId: admin.id, notes: [input.adminNotes, TIMELINE_NOTES.funding(principal, wallet)].filter(Boolean).join(" — ") },
    ),
    id,
  );
  await notifier.notifyUser(claimed.userId, NOTIFICATION_TEXTS.loanApproved(principal, claimed.id), {
    name: SERVER_EVENTS.loanStatus,
    payload: { status: "approved", amount: formatUsdAmount(principal), loanId: claimed.id, tokenId: claimed.loanNumber.toString() },
  });
  const result = await origination.originate(claimed, admin.id);
  // Still `minting` only when the origination was mined and the indexer has yet to mirror it.
  return { loan: await wireById(deps, result.id), minted: result.mintStatus !== "failed" };
}

export async function reject(deps: LoansServiceDeps, admin: UserRow, id: string, input: LoanRejectionInput) {
  const { repo, notifier } = deps;
  const loan = await decided(
    deps,
    await repo.transition(
      id,
      eq(loans.status, "pending"),
      { status: "rejected", rejectionReason: input.rejectionReason, rejectionDate: new Date(), adminNotes: input.adminNotes ?? null },
      { action: "rejected", actorId: admin.id, notes: [input.rejectionReason, input.adminNotes].filter(Boolean).join(" — ") },
    ),
    id,
  );
  await notifier.notifyUser(loan.userId, NOTIFICATION_TEXTS.loanRejected(loan.rejectionReason, loan.id), {
    name: SERVER_EVENTS.loanStatus,
    payload: { status: "rejected", amount: formatUsdAmount(loan.amount), rejectionReason: loan.rejectionReason, loanId: loan.id },
  });
  return wireById(deps, loan.id);
}

/** POST /admin/nfts/{id}/retry-mint: a failed origination, sent again (the contract refuses a second note of one id). */
export async function retryMint(deps: LoansServiceDeps, admin: UserRow, id: string, walletAddress?: string) {
  const { repo, users, origination } = deps;
  const loan = await repo.findById(id);
  if (!loan) throw notFound(LOAN_ANSWERS.notFound);
  if (loan.mintStatus === "minted") {
    if (loan.listingStatus === "failed") {
      const listed = await origination.list(loan, admin.id);
      return { loan: await wireById(deps, id), minted: true, listed: listed?.listingStatus === "listed" };
    }
    throw conflict(LOAN_ANSWERS.alreadyMinted);
  }
  if (loan.mintStatus === "minting") throw conflict(LOAN_ANSWERS.mintInProgress);
  if (loan.status !== "approved") throw conflict(LOAN_ANSWERS.notApproved);
  let wallet = loan.borrowerWallet;
  if (walletAddress) {
    const borrower = await users.findById(loan.userId);
    if (!borrower?.walletAddress || borrower.walletAddress !== walletAddress.toLowerCase()) throw badRequest(LOAN_ANSWERS.walletMismatch);
    wallet = borrower.walletAddress;
  }
  if (wallet) await deps.collateral.checkOrigination(loan, wallet);
  const claimed = await repo.transition(
    id,
    and(eq(loans.status, "approved"), sql`${loans.mintStatus} in ('failed', 'none')`),
    { mintStatus: "minting", mintError: null, borrowerWallet: wallet },
    { action: "mint_retried", actorId: admin.id },
  );
  if (!claimed) throw conflict(LOAN_ANSWERS.mintInProgress);
  const result = await origination.originate(claimed, admin.id);
  // Still `minting` only when the origination was mined and the indexer has yet to mirror it.
  return { loan: await wireById(deps, result.id), minted: result.mintStatus !== "failed" };
}

export async function retryListing(deps: LoansServiceDeps, admin: UserRow, id: string) {
  const { repo, origination } = deps;
  const loan = await repo.findById(id);
  if (!loan) throw notFound(LOAN_ANSWERS.notFound);
  if (loan.mintStatus !== "minted" || !["none", "failed"].includes(loan.listingStatus) || loan.status !== "active") throw conflict(LOAN_ANSWERS.listingNotNeeded);
  await origination.list(loan, admin.id);
  return wireById(deps, id);
}

/**
 * PUT /loans/{id}/repayment: checks the amount and installment against the note's schedule, then answers
 * what the wallet signs (an ERC-2612 permit of the stablecoin) and sends (repayWithPermit, or repay when
 * the allowance exists). Sent back with the signature, it answers the complete call.
 */
export async function repayment(deps: LoansServiceDeps, user: UserRow, id: string, input: RepaymentInput) {
  const { chain, origination } = deps;
  const view = await readable(deps, user, id);
  if (view.loan.userId !== user.id) throw forbidden();
  const loan = view.loan;
  if (loan.mintStatus !== "minted" || !["active", "defaulted"].includes(loan.status)) throw badRequest(LOAN_ANSWERS.notRepayable);
  const deployment = await chain.deployment().catch((error) => {
    throw new AppError(503, describeChainError(error).message);
  });
  let onChain, now: bigint, params: ServicingParams;
  try {
    [onChain, now, params] = await Promise.all([origination.loanOnChain(loan.loanNumber), chain.now(), readServicingParams(chain.publicClient, deployment.contracts.loanNote as Address)]);
  } catch (error) {
    throw new AppError(503, describeChainError(error).message);
  }
  if (onChain.status !== LOAN_NOTE_STATUS.active && onChain.status !== LOAN_NOTE_STATUS.defaulted) throw badRequest(LOAN_ANSWERS.notRepayable);
  const terms: LoanTerms = { principal: onChain.principal, rateBps: onChain.rateBps, termMonths: onChain.termMonths, start: onChain.start };
  const serviced: ServicedLoan = { terms, repaid: onChain.repaid, feesPaidThrough: onChain.feesPaidThrough };
  const payment = monthlyPayment(terms.principal, terms.rateBps, terms.termMonths);
  const paidInstallments = installmentsPaid(terms, onChain.repaid);
  const nextInstallment = Math.min(paidInstallments + 1, terms.termMonths as number);
  if (input.installmentNumber !== undefined) {
    if (input.installmentNumber > Number(terms.termMonths)) throw badRequest(LOAN_ANSWERS.installmentRange(Number(terms.termMonths)));
    if (input.installmentNumber <= paidInstallments) throw badRequest(LOAN_ANSWERS.installmentPaid(input.installmentNumber));
  }
  const fees = lateFeesOwed(serviced, now, params);
  // Overpayment is capped by the contract, never refused (docs/decisions.md): the answer says what it will take,
  // late fees first. Less than the first fee owed is what the contract refuses.
  const amount = input.amount;
  const split = splitRepayment(serviced, amount, now, params);
  if (!split) throw badRequest(LOAN_ANSWERS.belowLateFee(formatUsdAmount(fees.first)));
  const takes = split.fees + split.installments;
  const payer = (input.walletAddress ?? user.walletAddress ?? loan.borrowerWallet) as Address | null;
  const token = deployment.contracts.stablecoin as Address;
  const loanNote = deployment.contracts.loanNote as Address;
  const deadline = BigInt(input.deadline ?? Number(now) + PERMIT_TTL_SECONDS);
  let permit = null;
  if (payer) {
    const [domain, nonce] = await Promise.all([
      chain.publicClient.readContract({ address: token, abi: testDollarAbi, functionName: "eip712Domain" }),
      chain.publicClient.readContract({ address: token, abi: testDollarAbi, functionName: "nonces", args: [payer] }),
    ]);
    permit = permitTypedData({ domain, owner: payer, spender: loanNote, value: amount, nonce, deadline });
  }
  const call = (data: Hex) => ({ to: loanNote, data, value: "0", chainId: deployment.chainId });
  const calls: Record<string, unknown> = {
    repay: call(encodeFunctionData({ abi: loanNoteAbi, functionName: "repay", args: [loan.loanNumber, amount] })),
    approve: { to: token, data: encodeFunctionData({ abi: testDollarAbi, functionName: "approve", args: [loanNote, amount] }), value: "0", chainId: deployment.chainId },
  };
  if (input.signature) {
    const { v, r, s } = permitSignatureParts(input.signature as Hex);
    calls.repayWithPermit = call(encodeFunctionData({ abi: loanNoteAbi, functionName: "repayWithPermit", args: [loan.loanNumber, amount, deadline, v, r, s] }));
  }
  return {
    loanId: loan.id,
    tokenId: loan.loanNumber.toString(),
    installmentNumber: input.installmentNumber ?? nextInstallment,
    amount: formatUsdAmount(amount),
    amountTaken: formatUsdAmount(takes),
    capped: takes < amount,
    /** What of it pays late fees (taken first) and what goes to the installments. */
    lateFeesTaken: formatUsdAmount(split.fees),
    installmentsTaken: formatUsdAmount(split.installments),
    schedule: {
      monthlyPayment: formatUsdAmount(payment),
      installmentsPaid: paidInstallments,
      nextInstallment,
      nextDueDate: new Date(Number(nextDueDate(terms, onChain.repaid)) * 1000).toISOString(),
      installmentsPastDue: formatUsdAmount(amountDueNow(terms, onChain.repaid, now)),
      lateFeesOwed: formatUsdAmount(fees.amount),
      lateFeeCount: fees.count,
      amountDueNow: formatUsdAmount(amountDueWithFees(serviced, now, params)),
      payoffAmount: formatUsdAmount(payoffWithFees(serviced, now, params)),
      outstandingBalance: formatUsdAmount(outstandingBalance(terms, onChain.repaid)),
      totalRepaid: formatUsdAmount(onChain.repaid),
    },
    permit,
    deadline: deadline.toString(),
    calls,
    /** The call to send after signing the permit: present once the signature was sent back. */
    call: (calls.repayWithPermit as object | undefined) ?? null,
  };
}

/** The operations bound to their dependencies, as the routers hold them (docs/decisions.md "Services"). */
export function createLoansService(deps: LoansServiceDeps) {
  return bindDeps(deps, { wireById, page, request, demo, mine, get, stats, approve, reject, retryMint, retryListing, repayment });
}

export type LoansService = ReturnType<typeof createLoansService>;
