import { encodeFunctionData, erc721Abi, zeroAddress, type Address, type PublicClient } from "viem";
import { eq } from "drizzle-orm";
import { collateralEscrowAbi, loanNoteAbi } from "#domain/abis";
import { displayUsd } from "#domain/money";
import { LOAN_NOTE_STATUS } from "#domain/loanNoteStatus";
import { COLLATERAL_MESSAGES, type CollateralAppraisalInput, type CollateralClaimInput, type PledgedNftInput } from "#domain/schemas/loans";
import type { WireCollateralCheck, WireWalletCall, WireWalletNfts } from "#domain/wire/collateral";
import type { Deployment } from "#domain/deployment";
import { loans, type LoanRow, type UserRow } from "#db/schema";
import { AppError, badRequest, conflict, notFound } from "../http/errors";
import { bindDeps } from "../deps";
import type { ChainGateway } from "../chain/gateway";
import { noteHolder } from "../chain/noteHolder";
import { chainNow } from "../chain/chainClock";
import { NO_LATE_FEES } from "../chain/lateFeeParams";
import type { LoansRepository } from "../loans/repository";
import { LOAN_ANSWERS } from "../loans/texts";
import { pledgedNftOf, toWireLoan, toWireTimeline, type WireLoan } from "../loans/wire";
import { NFT_ANSWERS } from "../nfts/texts";
import { isUnreachable, readPieceMetadata, readStringView, cleanName } from "./metadata";
import { pieceKey, type CollateralRepository, type Piece } from "./repository";
import { COLLATERAL_TEXTS } from "./texts";

export interface CollateralServiceDeps {
  repo: CollateralRepository;
  loansRepo: LoansRepository;
  /** The deployment (LoanNote's and its CollateralEscrow's addresses). */
  chain: Pick<ChainGateway, "deployment">;
  /** The API's chain client: reads of the collections, LoanNote and the escrow. */
  publicClient: PublicClient;
}

interface Deps extends CollateralServiceDeps {
  /** Collection names read once per process: a collection's name() does not change. */
  names: Map<string, string | null>;
}

/** Pieces whose metadata one call reads from the chain at most; the rest wait for the next call. */
const MAX_METADATA_READS = 50;

const lower = (address: string) => address.toLowerCase();
const isAdmin = (user: UserRow) => user.role === "admin";
const chainDown = () => new AppError(503, NFT_ANSWERS.chainDown);

async function deploymentOf(deps: Deps): Promise<Deployment> {
  try {
    return await deps.chain.deployment();
  } catch {
    throw new AppError(503, NFT_ANSWERS.noDeployment);
  }
}

/** A live view read; a revert (a hostile or broken collection) answers `fallback`, an unreachable node is a 503. */
async function live<T>(read: Promise<T>, fallback: T): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (isUnreachable(error)) throw chainDown();
    return fallback;
  }
}

async function collectionName(deps: Deps, collection: string): Promise<string | null> {
  const key = lower(collection);
  if (deps.names.has(key)) return deps.names.get(key)!;
  const name = cleanName(await readStringView(deps.publicClient, key as Address, { functionName: "name" }));
  deps.names.set(key, name);
  return name;
}

/**
 * The cached metadata of these pieces, reading (and caching) the ones never read; a node that cannot be reached
 * leaves them uncached and unnamed, never fails the caller.
 */
export async function metadataOf(deps: Deps, pieces: Piece[]) {
  const { repo, publicClient } = deps;
  const cached = await repo.metadata(pieces);
  const missing = pieces.filter((p) => !cached.has(pieceKey(p))).slice(0, MAX_METADATA_READS);
  if (missing.length === 0) return cached;
  try {
    const read = await Promise.all(
      missing.map(async (p) => {
        const [name, meta] = await Promise.all([collectionName(deps, p.collection), readPieceMetadata(publicClient, lower(p.collection) as Address, p.tokenId)]);
        return { collection: lower(p.collection), tokenId: p.tokenId, collectionName: name, name: meta.name, image: meta.image };
      }),
    );
    await repo.saveMetadata(read);
  } catch (error) {
    if (!isUnreachable(error)) throw error;
    return cached;
  }
  return repo.metadata(pieces);
}

/** GET /collateral/mine: the pieces of allowed collections the caller's verified wallet holds, per the mirror. */
export async function mine(deps: Deps, user: UserRow): Promise<WireWalletNfts> {
  const { repo } = deps;
  const wallet = user.walletAddress ? lower(user.walletAddress) : null;
  if (!wallet) return { walletAddress: null, nfts: [] };
  const pieces = await repo.walletPieces(wallet);
  const [metadata, pledges] = await Promise.all([metadataOf(deps, pieces), repo.openPledgesOf(user.id)]);
  return {
    walletAddress: wallet,
    nfts: pieces.map((piece) => {
      const meta = metadata.get(pieceKey(piece));
      return {
        collection: lower(piece.collection),
        collectionName: meta?.collectionName ?? null,
        tokenId: piece.tokenId.toString(),
        name: meta?.name ?? null,
        image: meta?.image ?? null,
        pledgedLoanId: pledges.get(pieceKey(piece)) ?? null,
      };
    }),
  };
}

/** GET /collateral/collections: the collections LoanNote accepts now, per the mirror, with their names. */
export async function collections(deps: Deps): Promise<{ collection: string; name: string | null }[]> {
  const allowed = await deps.repo.allowedCollections();
  return Promise.all(allowed.map(async (collection) => ({ collection: lower(collection), name: await collectionName(deps, collection).catch(() => null) })));
}

/**
 * A request's pledge checked against the mirror before anything is stored: a verified wallet, an allowed collection,
 * a piece the wallet holds. (Whether another open request pledges it is decided where the request is stored.)
 */
export async function checkPledge(deps: Deps, user: UserRow, nft: PledgedNftInput): Promise<void> {
  const { repo } = deps;
  if (!user.walletAddress) throw badRequest(COLLATERAL_MESSAGES.verifyWallet);
  if (!(await repo.isAllowed(nft.collection))) throw badRequest(COLLATERAL_MESSAGES.collectionNotAllowed);
  if ((await repo.ownerOf(nft)) !== lower(user.walletAddress)) throw badRequest(COLLATERAL_MESSAGES.notHeld);
  // Read now, so the request's answer and the admin's review show the piece.
  await metadataOf(deps, [nft]);
}

/** Where the pledged piece is now, read live: its owner, and whether the escrow may take it from `wallet`. */
async function pieceNow(deps: Deps, escrow: Address, piece: Piece, wallet: string | null) {
  const { publicClient } = deps;
  const address = lower(piece.collection) as Address;
  const [owner, approvedOne, approvedAll] = await Promise.all([
    live(publicClient.readContract({ address, abi: erc721Abi, functionName: "ownerOf", args: [piece.tokenId] }).then(lower), null),
    live(publicClient.readContract({ address, abi: erc721Abi, functionName: "getApproved", args: [piece.tokenId] }).then(lower), null),
    wallet ? live(publicClient.readContract({ address, abi: erc721Abi, functionName: "isApprovedForAll", args: [wallet as Address, escrow] }), false) : false,
  ]);
  const held = owner !== null && wallet !== null && owner === lower(wallet);
  return { owner, held, approved: approvedOne === lower(escrow) || approvedAll === true };
}

const pieceOf = (loan: LoanRow): Piece | null => (loan.collateralCollection && loan.collateralTokenId !== null ? { collection: loan.collateralCollection, tokenId: loan.collateralTokenId } : null);

/** GET /loans/{id}/collateral: the pledged piece read live, for the request page and the admin's review. */
export async function check(deps: Deps, user: UserRow, loanId: string): Promise<WireCollateralCheck> {
  const { loansRepo } = deps;
  const first = await loansRepo.view(loanId);
  if (!first || (first.loan.userId !== user.id && !isAdmin(user))) throw notFound(LOAN_ANSWERS.notFound);
  const piece = pieceOf(first.loan);
  if (!piece) throw notFound(COLLATERAL_MESSAGES.noPledge);
  await metadataOf(deps, [piece]);
  const view = (await loansRepo.view(loanId)) ?? first;
  const nft = pledgedNftOf(view)!;
  const d = await deploymentOf(deps);
  const escrow = d.contracts.collateralEscrow as Address;
  const borrowerWallet = view.loan.borrowerWallet ?? view.borrower.walletAddress ?? null;
  const now = await pieceNow(deps, escrow, piece, borrowerWallet);
  // Only a request still to be originated (awaiting review, or approved with its origination to retry) needs the
  // escrow's approval: a rejected request's piece is released, an originated one's is in escrow already.
  const toOriginate = view.loan.status === "pending" || (view.loan.status === "approved" && view.loan.mintStatus !== "minted");
  const approval: WireWalletCall | null =
    toOriginate && now.held && !now.approved
      ? {
          to: lower(piece.collection),
          data: encodeFunctionData({ abi: erc721Abi, functionName: "approve", args: [escrow, piece.tokenId] }),
          value: "0",
          summary: COLLATERAL_TEXTS.approveEscrow(COLLATERAL_TEXTS.label(nft)),
        }
      : null;
  return { nft, borrowerWallet, owner: now.owner, held: now.held, approved: now.approved, approval };
}

/**
 * The approval's live check of a loan's pledged piece (nothing is sent, nothing changes when it refuses, 409): an
 * appraisal, a collection the escrow still accepts, the borrower's `wallet` holding it, the escrow approved for it.
 */
export async function checkOrigination(deps: Deps, loan: LoanRow, wallet: string): Promise<void> {
  const { publicClient } = deps;
  const piece = pieceOf(loan);
  if (!piece) return;
  if (loan.collateralAppraisal === null) throw conflict(COLLATERAL_MESSAGES.appraisalMissing);
  const d = await deploymentOf(deps);
  const escrow = d.contracts.collateralEscrow as Address;
  const allowed = await live(publicClient.readContract({ address: escrow, abi: collateralEscrowAbi, functionName: "isCollectionAllowed", args: [lower(piece.collection) as Address] }), false);
  if (!allowed) throw conflict(COLLATERAL_MESSAGES.collectionNoLongerAllowed);
  const now = await pieceNow(deps, escrow, piece, wallet);
  if (!now.held) throw conflict(COLLATERAL_MESSAGES.borrowerNoLongerHolds);
  if (!now.approved) throw conflict(COLLATERAL_MESSAGES.escrowNotApproved);
}

/** PUT /admin/loans/{id}/collateral/appraisal: the admin's value of a pending request's pledged piece. */
export async function appraise(deps: Deps, admin: UserRow, loanId: string, input: CollateralAppraisalInput): Promise<WireLoan> {
  const { loansRepo } = deps;
  const loan = await loansRepo.findById(loanId);
  if (!loan) throw notFound(LOAN_ANSWERS.notFound);
  if (!pieceOf(loan)) throw notFound(COLLATERAL_MESSAGES.noPledge);
  const updated = await loansRepo.transition(
    loanId,
    eq(loans.status, "pending"),
    { collateralAppraisal: input.appraisal, collateralAppraisedBy: admin.id, collateralAppraisedAt: new Date() },
    { action: "collateral_appraised", actorId: admin.id, notes: COLLATERAL_TEXTS.appraised(displayUsd(input.appraisal)) },
  );
  if (!updated) throw conflict(COLLATERAL_MESSAGES.appraisalNotPending);
  const view = (await loansRepo.view(loanId))!;
  // Appraised while pending: no note yet, so no late fees to read.
  return toWireLoan(view, { timeline: toWireTimeline(await loansRepo.events(loanId)), nowSeconds: await chainNow(deps.publicClient), fees: NO_LATE_FEES });
}

/** Who may take note `tokenId`'s piece now: its holder (the depositor while vaulted) after a default, its borrower after a failed return. */
async function claimant(deps: Deps, d: Deployment, tokenId: bigint): Promise<{ entitled: string; borrower: string; collection: string; collateralId: bigint; defaulted: boolean }> {
  const { publicClient } = deps;
  const loanNote = d.contracts.loanNote as Address;
  let loan;
  try {
    loan = await publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "loanOf", args: [tokenId] });
  } catch (error) {
    if (isUnreachable(error)) throw chainDown();
    throw notFound(NFT_ANSWERS.notFound);
  }
  const [collection, collateralId, borrower] = await live(
    publicClient.readContract({ address: d.contracts.collateralEscrow as Address, abi: collateralEscrowAbi, functionName: "collateralOf", args: [tokenId] }),
    [zeroAddress, 0n, zeroAddress] as const,
  );
  const status = Number(loan.status);
  if (borrower === zeroAddress || (status !== LOAN_NOTE_STATUS.defaulted && status !== LOAN_NOTE_STATUS.repaid)) throw conflict(COLLATERAL_MESSAGES.claimNotNow);
  if (status === LOAN_NOTE_STATUS.repaid) return { entitled: lower(borrower), borrower: lower(borrower), collection: lower(collection), collateralId, defaulted: false };
  const owner = await live(publicClient.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "ownerOf", args: [tokenId] }), zeroAddress);
  const holder = await live(noteHolder(publicClient, d, tokenId, owner), zeroAddress);
  return { entitled: holder, borrower: lower(borrower), collection: lower(collection), collateralId, defaulted: true };
}

/** POST /nfts/{tokenId}/collateral/claim: the call that takes the escrowed piece out, for the one entitled to it. */
export async function claim(deps: Deps, user: UserRow, tokenId: bigint, input: CollateralClaimInput): Promise<{ call: WireWalletCall }> {
  const d = await deploymentOf(deps);
  const loanNote = lower(d.contracts.loanNote);
  const escrow = lower(d.contracts.collateralEscrow);
  const who = await claimant(deps, d, tokenId);
  const wallet = user.walletAddress ? lower(user.walletAddress) : null;
  if (!wallet || wallet !== who.entitled) throw new AppError(403, COLLATERAL_MESSAGES.claimNotHolder);
  const to = input.to ?? wallet;
  if (to === loanNote || to === escrow || to === zeroAddress) throw badRequest(COLLATERAL_MESSAGES.claimRecipient);
  const piece = { collection: who.collection, tokenId: who.collateralId };
  const meta = (await metadataOf(deps, [piece])).get(pieceKey(piece));
  const label = COLLATERAL_TEXTS.label({ name: meta?.name ?? null, collectionName: meta?.collectionName ?? null, tokenId: who.collateralId });
  return {
    call: {
      to: escrow,
      data: encodeFunctionData({ abi: collateralEscrowAbi, functionName: "claimCollateral", args: [tokenId, to as Address] }),
      value: "0",
      summary: who.defaulted ? COLLATERAL_TEXTS.claimAfterDefault(label, to) : COLLATERAL_TEXTS.claimReturn(label, to),
    },
  };
}

/** The operations bound to their dependencies (docs/decisions.md "Services"). */
export function createCollateralService(deps: CollateralServiceDeps) {
  const bound: Deps = { ...deps, names: new Map() };
  return bindDeps(bound, { mine, collections, checkPledge, check, checkOrigination, appraise, claim, metadataOf });
}

export type CollateralService = ReturnType<typeof createCollateralService>;
