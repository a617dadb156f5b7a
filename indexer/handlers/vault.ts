import type { noteVaultAbi } from "#domain/abis";
import { chainVaultMoves } from "#db/schema/chain";
import { logRow, type Handlers } from "../context";

/**
 * Every way into the vault (NoteVault.deposit, safeTransferFrom, a plain transferFrom) logs the note's Transfer
 * first and then the vault's Deposited (LoanNote's transfer hook records the depositor), so Deposited sets the
 * holder itself.
 */
export const vaultHandlers: Handlers<typeof noteVaultAbi> = {
  Deposited(event, ctx) {
    const { tokenId, depositor } = event.args;
    ctx.insert(chainVaultMoves, { ...logRow(event, ctx), tokenId, account: depositor, kind: "deposit" });
    ctx.vaultPositions.put(
      {
        chainId: ctx.chainId,
        tokenId,
        depositor,
        active: true,
        depositTxHash: event.txHash,
        depositBlock: event.blockNumber,
        updatedBlock: event.blockNumber,
      },
      event,
    );
    const note = ctx.notes.get(tokenId);
    if (note && note.owner === ctx.addresses.vault) ctx.notes.put({ ...note, holder: depositor, updatedBlock: event.blockNumber }, event);
  },

  Withdrawn(event, ctx) {
    const { tokenId, depositor } = event.args;
    ctx.insert(chainVaultMoves, { ...logRow(event, ctx), tokenId, account: depositor, kind: "withdraw" });
    const position = ctx.vaultPositions.get(tokenId);
    if (position) ctx.vaultPositions.put({ ...position, active: false, updatedBlock: event.blockNumber }, event);
  },
};
