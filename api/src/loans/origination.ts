import type { Address, Hex, TransactionReceipt } from "viem";
import { loanNoteAbi, testDollarAbi } from "#domain/abis";
import { LOAN_NOTE_STATUS } from "#domain/loanNoteStatus";
import { SERVER_EVENTS } from "#domain/events";
import type { LoanRow } from "#db/schema";
import type { Notifier } from "../notifications/notifier";
import type { KeyValueStore } from "../kv/store";
import { ChainActionError, describeChainError, revertName, type ChainGateway } from "../chain/gateway";
import { waitForMirror } from "./mirror";
import type { LoansRepository } from "./repository";
import { bindDeps } from "../deps";
import { NOTIFY, RECONCILED, TIMELINE_NOTES } from "./texts";
import { AT_PAR, openTreasuryListings, signTreasuryListing, type TreasuryOrders } from "../treasury/parListing";
import type { OrderAnnouncer } from "../orders/announce";
import { inArray, eq, and } from "drizzle-orm";
import { loans } from "#db/schema";

interface Logger {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface OriginationDeps {
  repo: LoansRepository;
  chain: ChainGateway;
  notifier: Notifier;
  kv: KeyValueStore;
  /** The order book, where the treasury's signed listing of each new note is stored. */
  orders: TreasuryOrders;
  announcer?: Pick<OrderAnnouncer, "stored">;
  /** Blocks the indexer stays behind the head (CONFIRMATIONS). */
  confirmations?: number;
  logger?: Logger;
}

const TREASURY_ALERT_KEY = "alert:treasury-low";
const TREASURY_ALERT_TTL_MS = 60 * 60_000;

interface ListOptions {
  /** Right after the note's own origination: the mirror may not have marked the loan minted yet. */
  originated?: boolean;
}

export interface OnChainLoan {
  principal: bigint;
  repaid: bigint;
  start: bigint;
  rateBps: number;
  termMonths: number;
  /** Every installment up to this one has had its late fee paid or never owed one. */
  feesPaidThrough: number;
  status: number;
}

/**
 * Origination (funding + mint, one transaction by the originator) and the listing at par that follows it (a
 * listing the treasury signs with its key and the order book stores, with its own status: no transaction). A loan is only ever sent here after a conditional
 * update moved it to `minting` (or `listing`), so two approvals or retries never send twice; and the contract
 * refuses a second origination of one id. The loan becomes active + minted when the indexer mirrors the
 * origination (indexer/loans.ts), never from here: the API records what it sent and waits for the mirror.
 */

export async function loanOnChain(deps: OriginationDeps, tokenId: bigint): Promise<OnChainLoan> {
  const { chain } = deps;
  const deployment = await chain.deployment();
  const loan = await chain.publicClient.readContract({ address: deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "loanOf", args: [tokenId] }).catch((error: unknown) => {
    // The contract answers a note that was never originated with a revert, which means "none" here.
    if (revertName(error) === "LoanNotFound") return null;
    throw error;
  });
  if (!loan) return { principal: 0n, repaid: 0n, start: 0n, rateBps: 0, termMonths: 0, feesPaidThrough: 0, status: LOAN_NOTE_STATUS.none };
  return {
    principal: BigInt(loan.principal),
    repaid: BigInt(loan.repaid),
    start: BigInt(loan.start),
    rateBps: Number(loan.rateBps),
    termMonths: Number(loan.termMonths),
    feesPaidThrough: Number(loan.feesPaidThrough),
    status: Number(loan.status),
  };
}

export async function alertAdmins(deps: OriginationDeps, message: { title: string; message: string }, refs: { loanId?: string; tokenId?: string; txHash?: string } = {}) {
  const { notifier } = deps;
  await notifier.notifyAdmins(
    { type: "system_alert", ...message, link: refs.loanId ? `/admin/loans?loan=${refs.loanId}` : "/admin/overview" },
    { name: SERVER_EVENTS.adminNotification, payload: { type: "system_alert", message: message.message, ...refs } },
  );
}

/** The loan once the mirror has indexed `block` (or the wait ran out): the indexer records the note, not the API. */
async function afterMirror(deps: OriginationDeps, loanId: string, block: bigint): Promise<LoanRow | undefined> {
  const { repo } = deps;
  await waitForMirror(repo, block);
  return repo.findById(loanId);
}

/** The head the indexer follows (less its confirmations). */
async function indexedHead(deps: OriginationDeps): Promise<bigint> {
  const { chain } = deps;
  const head = await chain.publicClient.getBlockNumber();
  return head - BigInt(deps.confirmations ?? 0);
}

async function recordMintFailure(deps: OriginationDeps, loan: LoanRow, error: ChainActionError): Promise<LoanRow | undefined> {
  const { repo } = deps;
  const updated = await repo.transition(loan.id, eq(loans.mintStatus, "minting"), { mintStatus: "failed", mintError: error.message }, { action: "mint_failed", notes: error.message });
  await alertAdmins(deps, NOTIFY.mintFailed(loan.loanNumber, error.message), { loanId: loan.id, tokenId: loan.loanNumber.toString() });
  return updated;
}

/** The treasury's stablecoin balance and the allowance it gave the note contract. */
export async function treasuryFunds(deps: OriginationDeps): Promise<{ balance: bigint; allowance: bigint; treasury: Address }> {
  const { chain } = deps;
  const deployment = await chain.deployment();
  const treasury = deployment.treasury as Address;
  const token = deployment.contracts.stablecoin as Address;
  const [balance, allowance] = await Promise.all([
    chain.publicClient.readContract({ address: token, abi: testDollarAbi, functionName: "balanceOf", args: [treasury] }),
    chain.publicClient.readContract({ address: token, abi: testDollarAbi, functionName: "allowance", args: [treasury, deployment.contracts.loanNote as Address] }),
  ]);
  return { balance, allowance, treasury };
}

/** A system alert (at most once an hour) when the treasury cannot fund `needed`; true when it can. */
export async function checkTreasuryCovers(deps: OriginationDeps, needed: bigint): Promise<boolean> {
  const { kv } = deps;
  const { balance, allowance } = await treasuryFunds(deps);
  if (balance >= needed && allowance >= needed) {
    await kv.delete(TREASURY_ALERT_KEY);
    return true;
  }
  if (!(await kv.get(TREASURY_ALERT_KEY))) {
    await kv.set(TREASURY_ALERT_KEY, "1", TREASURY_ALERT_TTL_MS);
    await alertAdmins(deps, NOTIFY.treasuryLow(needed, balance, allowance));
  }
  return false;
}

/** After a mint: can the treasury still fund the largest pending request? */
export async function checkNextApproval(deps: OriginationDeps): Promise<void> {
  const { repo } = deps;
  const pending = await repo.withStatus(["pending"]);
  if (!pending.length) return;
  const largest = pending.reduce((max, loan) => (loan.amount > max ? loan.amount : max), 0n);
  await checkTreasuryCovers(deps, largest).catch((error) => deps.logger?.warn({ err: error }, "treasury check failed"));
}

/** Par: the note's outstanding principal as the chain computes it (its principal until something is repaid). */
async function parOf(deps: OriginationDeps, tokenId: bigint): Promise<bigint> {
  const { chain } = deps;
  const deployment = await chain.deployment();
  return chain.publicClient.readContract({
    address: deployment.contracts.loanNote as Address,
    abi: loanNoteAbi,
    functionName: "outstandingBalance",
    args: [tokenId],
  });
}

/**
 * Which loans a listing may claim: a minted note never listed or whose listing failed; right after its own
 * origination's receipt the API may list before the indexer has marked the loan minted (`originated`), since the
 * note exists whatever the mirror says yet.
 */
function claimable(options: ListOptions) {
  const minted = options.originated
    ? and(inArray(loans.mintStatus, ["minting", "minted"]), inArray(loans.status, ["approved", "active"]))
    : and(eq(loans.mintStatus, "minted"), eq(loans.status, "active"));
  return and(minted, inArray(loans.listingStatus, ["none", "failed"]));
}

/**
 * Lists a minted note at 100% of par by a listing the treasury signs with its key and the order book stores (its own
 * status: `listing`, then `listed` or `failed` with an alert), the one path of every treasury listing at par: after an
 * origination, a retry and a reconciliation. Once per note: a par listing stays valid across repayments, so nothing
 * lists it again after one; it lapses on a default or a move. The claim is a conditional
 * update, so API processes racing for one loan list it once; an open treasury listing already stored (a crash after
 * the signature) is recorded, not signed again.
 */
export async function list(deps: OriginationDeps, loan: LoanRow, actor: string | null = null, options: ListOptions = {}): Promise<LoanRow | undefined> {
  const { repo } = deps;
  const claimed = await repo.transition(loan.id, claimable(options), { listingStatus: "listing", listingError: null });
  if (!claimed) return undefined;
  const tokenId = claimed.loanNumber;
  try {
    const [existing] = await openTreasuryListings(deps, tokenId);
    if (!existing) await signTreasuryListing(deps, tokenId, AT_PAR);
    const par = await parOf(deps, tokenId);
    return await repo.transition(
      claimed.id,
      eq(loans.listingStatus, "listing"),
      { listingStatus: "listed", listingTxHash: null },
      { action: "listed", actorId: actor, notes: TIMELINE_NOTES.listedAtPar(par) },
    );
  } catch (error) {
    const failure = describeChainError(error);
    deps.logger?.warn({ err: error, loanId: claimed.id }, "listing failed");
    const failed = await repo.transition(
      claimed.id,
      eq(loans.listingStatus, "listing"),
      { listingStatus: "failed", listingError: failure.message },
      { action: "listing_failed", actorId: actor, notes: failure.message },
    );
    await alertAdmins(deps, NOTIFY.listingFailed(tokenId, failure.message), { loanId: claimed.id, tokenId: tokenId.toString() });
    return failed;
  }
}

/**
 * Sends the origination of a loan already claimed as `minting`, waits for the indexer to mirror it (which makes
 * the loan active + minted), then lists the note. Never throws for chain trouble: the loan ends `minted` (or
 * still `minting` while the indexer catches up) or `failed` (with a system alert).
 */
export async function originate(deps: OriginationDeps, loan: LoanRow, actor: string | null): Promise<LoanRow> {
  const { repo, chain } = deps;
  const principal = loan.principal ?? loan.amount;
  let receipt: TransactionReceipt;
  try {
    if (!loan.borrowerWallet) throw new ChainActionError("The loan has no borrower wallet to fund");
    const deployment = await chain.deployment();
    if (!(await checkTreasuryCovers(deps, principal))) {
      const funds = await treasuryFunds(deps);
      throw new ChainActionError(NOTIFY.treasuryLow(principal, funds.balance, funds.allowance).message);
    }
    const onSent = async (hash: Hex) => {
      await repo.transition(loan.id, undefined, { mintTxHash: hash }, { action: "mint_sent", actorId: actor, txHash: hash });
    };
    const terms = [loan.loanNumber, loan.borrowerWallet as Address, principal, loan.rateBps, loan.termMonths] as const;
    // A pledged NFT moves into escrow in the same transaction; the checks before approval said it can.
    receipt =
      loan.collateralCollection && loan.collateralTokenId !== null
        ? await chain.send({
            signer: "originator",
            address: deployment.contracts.loanNote as Address,
            abi: loanNoteAbi,
            functionName: "originateWithCollateral",
            args: [...terms, loan.collateralCollection as Address, loan.collateralTokenId],
            onSent,
          })
        : await chain.send({ signer: "originator", address: deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "originate", args: terms, onSent });
  } catch (error) {
    const failure = describeChainError(error);
    deps.logger?.warn({ err: error, loanId: loan.id }, "origination failed");
    // A note of this id already exists: an earlier attempt went through without being recorded.
    if (failure.revert === "LoanAlreadyExists") {
      const reconciled = await reconcileOne(deps, (await repo.findById(loan.id)) ?? loan);
      if (reconciled) return reconciled;
    }
    return (await recordMintFailure(deps, loan, failure)) ?? ((await repo.findById(loan.id)) as LoanRow);
  }
  const seen = (await afterMirror(deps, loan.id, receipt.blockNumber)) ?? loan;
  await checkNextApproval(deps);
  return (await list(deps, seen, actor, { originated: true })) ?? (await repo.findById(loan.id)) ?? seen;
}

/**
 * Brings one loan's mint status in line with the chain after a crash or a refused retry. A note that exists is
 * the indexer's to record: this waits for the mirror to reach the head and answers the loan as it then is; a
 * note the mirror holds that the loan still did not take was originated while the loan could not be (e.g.
 * pending), and the loan is marked failed. A loan left minting (or called minted) without a note is failed and
 * can be retried. Answers the updated row, or undefined when nothing changed or the chain cannot tell.
 */
export async function reconcileOne(deps: OriginationDeps, loan: LoanRow): Promise<LoanRow | undefined> {
  const { repo } = deps;
  const onChain = await loanOnChain(deps, loan.loanNumber);
  const exists = onChain.status !== LOAN_NOTE_STATUS.none;
  if (exists && loan.mintStatus !== "minted") {
    const caughtUp = await waitForMirror(repo, await indexedHead(deps));
    const fresh = await repo.findById(loan.id);
    if (!fresh || fresh.mintStatus === "minted") return fresh;
    if (!caughtUp) return undefined;
    const reason = "The note exists on-chain, but its origination was not this loan's approval";
    const updated = await repo.transition(loan.id, eq(loans.mintStatus, fresh.mintStatus), { mintStatus: "failed", mintError: reason }, { action: "mint_failed", notes: reason });
    await alertAdmins(deps, NOTIFY.mintFailed(loan.loanNumber, reason), { loanId: loan.id, tokenId: loan.loanNumber.toString() });
    return updated;
  }
  if (!exists && (loan.mintStatus === "minting" || loan.mintStatus === "minted")) {
    const reason = loan.mintStatus === "minting" ? RECONCILED.originationMissing : RECONCILED.noteMissing;
    const updated = await repo.transition(
      loan.id,
      eq(loans.mintStatus, loan.mintStatus),
      {
        mintStatus: "failed",
        mintError: reason,
        status: loan.status === "active" ? "approved" : loan.status,
        listingStatus: "none",
        nftTokenId: null,
        nftTransactionHash: null,
      },
      { action: "mint_failed", notes: reason },
    );
    await alertAdmins(deps, NOTIFY.mintFailed(loan.loanNumber, reason), { loanId: loan.id, tokenId: loan.loanNumber.toString() });
    return updated;
  }
  return undefined;
}

/** Start-up (and after-crash) reconciliation with the chain: every minting and minted loan, then listings. */
export async function reconcileAll(deps: OriginationDeps): Promise<{ minted: number; failed: number; listed: number }> {
  const { repo } = deps;
  const result = { minted: 0, failed: 0, listed: 0 };
  for (const loan of await repo.withMintStatus(["minting", "minted"])) {
    const updated = await reconcileOne(deps, loan);
    if (updated?.mintStatus === "minted") result.minted += 1;
    if (updated?.mintStatus === "failed") result.failed += 1;
  }
  // A listing left `listing` by a crash: stored (signed) or not; what is not is failed, for the admin's retry.
  for (const loan of await repo.withListingStatus(["listing"])) {
    const listed = (await openTreasuryListings(deps, loan.loanNumber)).length > 0;
    await repo.transition(loan.id, eq(loans.listingStatus, "listing"), listed ? { listingStatus: "listed" } : { listingStatus: "failed", listingError: RECONCILED.listingMissing }, {
      action: listed ? "listed" : "listing_failed",
      notes: RECONCILED.note,
    });
    if (listed) result.listed += 1;
  }
  // A crash between an origination and its listing at par leaves the note minted and never listed: list it now,
  // unless it was listed or unlisted (by an admin) before.
  for (const loan of await repo.withListingStatus(["none"])) {
    if (loan.status !== "active") continue;
    const actions = new Set((await repo.events(loan.id)).map((event) => event.action));
    if (actions.has("listed") || actions.has("unlisted")) continue;
    if ((await list(deps, loan))?.listingStatus === "listed") result.listed += 1;
  }
  return result;
}
/** The operations bound to their dependencies, as the loan services, the treasury and the loan job hold them (docs/decisions.md "Services"). */
export function createOrigination(deps: OriginationDeps) {
  return bindDeps(deps, { originate, list, reconcileOne, reconcileAll, loanOnChain, treasuryFunds, checkTreasuryCovers, checkNextApproval, alertAdmins });
}

export type Origination = ReturnType<typeof createOrigination>;
