import type { loanNoteAbi } from "#domain/abis";
import { formatUsdAmount } from "#domain/money";
import { REFINANCED_ID_OFFSET } from "#domain/noteIds";
import { chainCreditWithdrawals, chainLateFeePayments, chainRepayments, chainTransfers } from "#db/schema/chain";
import type { ChainEvent } from "../decode";
import { logRow, ZERO_ADDRESS, type Context, type Handlers } from "../context";
import { burnedHolderKey } from "./collateral";
import { lapseListing } from "./marketplace";

const mintKey = (tokenId: bigint) => `mint:${tokenId}`;

function requireNote(ctx: Context, tokenId: bigint, event: ChainEvent) {
  const note = ctx.notes.get(tokenId);
  if (!note) throw new Error(`${event.name} of note ${tokenId} at ${event.txHash}:${event.logIndex} before its origination`);
  return note;
}

export const loanNoteHandlers: Handlers<typeof loanNoteAbi> = {
  Transfer(event, ctx) {
    const { from, to, tokenId } = event.args;
    ctx.insert(chainTransfers, { ...logRow(event, ctx), tokenId, from, to });
    if (from !== ZERO_ADDRESS) lapseListing(event, ctx, tokenId, { reason: to === ZERO_ADDRESS ? "burned" : "moved" });
    const note = ctx.notes.get(tokenId);
    if (!note) {
      // _mint logs its Transfer before LoanOriginated in the same transaction, so the same batch.
      if (from === ZERO_ADDRESS) ctx.scratch.set(mintKey(tokenId), to);
      return;
    }
    const burned = to === ZERO_ADDRESS;
    // A claim or the final payment burns the note before its Collateral* log: who held it is told of the piece.
    if (burned) ctx.scratch.set(burnedHolderKey(tokenId), note.holder);
    const position = ctx.vaultPositions.get(tokenId);
    let holder: string = to;
    if (to === ctx.addresses.vault && position?.active) holder = position.depositor;
    if (burned && position?.active) ctx.vaultPositions.put({ ...position, active: false, updatedBlock: event.blockNumber }, event);
    ctx.notes.put({ ...note, owner: to, holder, burned: burned || note.burned, updatedBlock: event.blockNumber }, event);
  },

  LoanOriginated(event, ctx) {
    const { tokenId, borrower, principal, rateBps, termMonths, start } = event.args;
    const owner = ctx.scratch.get(mintKey(tokenId)) as string | undefined;
    if (!owner) throw new Error(`LoanOriginated of note ${tokenId} at ${event.txHash} without its mint`);
    ctx.notes.put(
      {
        chainId: ctx.chainId,
        tokenId,
        borrower,
        owner,
        holder: owner,
        principal,
        rateBps: Number(rateBps),
        termMonths: Number(termMonths),
        startTime: Number(start),
        totalRepaid: 0n,
        feesPaidThrough: 0,
        lateFeesPaid: 0n,
        status: "active",
        burned: false,
        originTxHash: event.txHash,
        originBlock: event.blockNumber,
        originTime: event.blockTime,
        updatedBlock: event.blockNumber,
      },
      event,
    );
    // A refinance's note is no funding of a request: its LoanRefinanced, next in the transaction, tells of it.
    if (tokenId >= REFINANCED_ID_OFFSET) return;
    const refs = { tokenId: tokenId.toString(), txHash: event.txHash };
    ctx.emit({ event: "loan:funded", payload: { amount: formatUsdAmount(principal), nftId: refs.tokenId, ...refs }, wallets: [borrower], rooms: ["admins"] });
    // loan:status goes out only when the off-chain loan actually becomes active (indexer/loans.ts).
    ctx.loan({ kind: "originated", tokenId, principal, start: Number(start) });
  },

  /** Logged before its payment's Repaid, whose amount (and so the holder's credit) already includes the fees. */
  LateFeesPaid(event, ctx) {
    const { tokenId, beneficiary, amount, feesPaidThrough } = event.args;
    ctx.insert(chainLateFeePayments, { ...logRow(event, ctx), tokenId, beneficiary, amount, feesPaidThrough: Number(feesPaidThrough) });
    const note = requireNote(ctx, tokenId, event);
    ctx.notes.put({ ...note, feesPaidThrough: Number(feesPaidThrough), lateFeesPaid: note.lateFeesPaid + amount, updatedBlock: event.blockNumber }, event);
  },

  Repaid(event, ctx) {
    const { tokenId, payer, beneficiary, amount, totalRepaid } = event.args;
    ctx.insert(chainRepayments, { ...logRow(event, ctx), tokenId, payer, beneficiary, amount, totalRepaid });
    const note = requireNote(ctx, tokenId, event);
    ctx.notes.put({ ...note, totalRepaid, updatedBlock: event.blockNumber }, event);
    // The final payment burns the note before this log, so its listing lapsed as burned already.
    lapseListing(event, ctx, tokenId, { reason: "repaid", amount });
    const credit = ctx.credits.get(beneficiary) ?? { chainId: ctx.chainId, account: beneficiary, credited: 0n, withdrawn: 0n, updatedBlock: 0 };
    ctx.credits.put({ ...credit, credited: credit.credited + amount, updatedBlock: event.blockNumber }, event);
    ctx.emit({
      event: "marketplace:update",
      payload: { type: "repaid", amount: formatUsdAmount(amount), nftId: tokenId.toString(), tokenId: tokenId.toString(), txHash: event.txHash },
      rooms: ["marketplace"],
      wallets: [beneficiary, note.borrower, payer],
    });
  },

  LoanRepaid(event, ctx) {
    const { tokenId } = event.args;
    const note = requireNote(ctx, tokenId, event);
    ctx.notes.put({ ...note, status: "repaid", updatedBlock: event.blockNumber }, event);
    const refs = { tokenId: tokenId.toString(), txHash: event.txHash };
    ctx.emit({ event: "marketplace:update", payload: { type: "burned", amount: null, nftId: refs.tokenId, ...refs }, rooms: ["marketplace"] });
    ctx.loan({ kind: "repaid", tokenId, principal: note.principal });
  },

  /**
   * Last of a refinance's logs: the old note was paid off (Repaid, its burn, LoanRepaid), its pledge moved, the new
   * note minted to the lender (LoanOriginated). The loans table then closes the old loan as refinanced and opens the
   * new one for the same borrower (indexer/loans.ts).
   */
  LoanRefinanced(event, ctx) {
    const { tokenId, newTokenId, lender, payoff } = event.args;
    const old = requireNote(ctx, tokenId, event);
    const note = requireNote(ctx, newTokenId, event);
    const holder = (ctx.scratch.get(burnedHolderKey(tokenId)) as string | undefined) ?? old.holder;
    ctx.loan({ kind: "refinanced", tokenId, newTokenId, principal: note.principal, rateBps: note.rateBps, termMonths: note.termMonths, start: note.startTime, holder });
    const base = { tokenId: tokenId.toString(), newTokenId: newTokenId.toString(), principal: formatUsdAmount(note.principal), payoff: formatUsdAmount(payoff), txHash: event.txHash };
    ctx.emit({ event: "loan:refinanced", payload: { ...base, audience: "borrower" }, wallets: [note.borrower], rooms: ["admins"], loanOf: newTokenId });
    // The treasury is the lender of record, no user: it has no one to tell.
    const told = (wallet: string) => wallet !== ZERO_ADDRESS && wallet !== ctx.addresses.treasury && wallet !== note.borrower;
    if (told(holder)) ctx.emit({ event: "loan:refinanced", payload: { ...base, audience: "holder" }, wallets: [holder] });
    if (told(lender) && lender !== holder) ctx.emit({ event: "loan:refinanced", payload: { ...base, audience: "lender" }, wallets: [lender] });
  },

  LoanDefaulted(event, ctx) {
    const { tokenId } = event.args;
    const note = requireNote(ctx, tokenId, event);
    ctx.notes.put({ ...note, status: "defaulted", updatedBlock: event.blockNumber }, event);
    lapseListing(event, ctx, tokenId, { reason: "defaulted" });
    ctx.loan({ kind: "defaulted", tokenId, principal: note.principal, holder: note.holder });
  },

  CreditsWithdrawn(event, ctx) {
    const { account, amount } = event.args;
    ctx.insert(chainCreditWithdrawals, { ...logRow(event, ctx), account, amount });
    const credit = ctx.credits.get(account) ?? { chainId: ctx.chainId, account, credited: 0n, withdrawn: 0n, updatedBlock: 0 };
    ctx.credits.put({ ...credit, withdrawn: credit.withdrawn + amount, updatedBlock: event.blockNumber }, event);
  },
};
