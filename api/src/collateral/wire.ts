import { formatUsdAmount } from "#domain/money";
import type { ChainCollateralState } from "#domain/statuses";
import type { WirePledgedNft } from "#domain/wire/collateral";
import { loanToValueBps } from "#domain/loanToValue";

/**
 * What the loan and note reads join for a pledged piece (one query per page, never one per row): the request's
 * columns, the escrow's row in the mirror (chain_collateral) when the note was originated, and the cached metadata.
 */
export interface PledgeFacts {
  collection: string;
  tokenId: bigint | string;
  collectionName: string | null;
  name: string | null;
  image: string | null;
  /** chain_collateral.state; null before origination (the piece is then only pledged). */
  chainState: ChainCollateralState | null;
  /** The request was rejected before origination: nothing was escrowed and the piece is free to pledge again. */
  released?: boolean;
  lockedTxHash: string | null;
  closedTxHash: string | null;
  closedTo: string | null;
  /** The admin's appraisal, micro-dollars. */
  appraisal: bigint | null;
  /** The loan's principal, or the requested amount before approval, micro-dollars. */
  principal: bigint;
}

const big = (value: bigint | string | number | null | undefined): bigint | null => (value === null || value === undefined ? null : BigInt(value));

export function toWirePledgedNft(facts: PledgeFacts): WirePledgedNft {
  return {
    collection: facts.collection.toLowerCase(),
    collectionName: facts.collectionName,
    tokenId: facts.tokenId.toString(),
    name: facts.name,
    image: facts.image,
    state: facts.chainState ?? (facts.released ? "released" : "pledged"),
    appraisal: facts.appraisal === null ? null : formatUsdAmount(facts.appraisal),
    loanToValueBps: loanToValueBps(facts.principal, facts.appraisal),
    txHash: facts.closedTxHash ?? facts.lockedTxHash,
    receiver: facts.closedTo,
  };
}

/** The pledge's columns of a raw SQL note row (the note reads of api/src/nfts), whose numbers arrive as text. */
export interface PledgeColumns {
  pledge_collection: string | null;
  pledge_token_id: string | null;
  pledge_collection_name: string | null;
  pledge_name: string | null;
  pledge_image: string | null;
  pledge_state: string | null;
  pledge_locked_tx_hash: string | null;
  pledge_closed_tx_hash: string | null;
  pledge_closed_to: string | null;
  pledge_appraisal: string | null;
}

/** The same facts from a raw SQL note row. */
export function pledgeFromRow(row: PledgeColumns & { principal: string }): WirePledgedNft | null {
  if (!row.pledge_collection || row.pledge_token_id === null) return null;
  return toWirePledgedNft({
    collection: row.pledge_collection,
    tokenId: row.pledge_token_id,
    collectionName: row.pledge_collection_name,
    name: row.pledge_name,
    image: row.pledge_image,
    chainState: row.pledge_state as ChainCollateralState | null,
    lockedTxHash: row.pledge_locked_tx_hash,
    closedTxHash: row.pledge_closed_tx_hash,
    closedTo: row.pledge_closed_to,
    appraisal: big(row.pledge_appraisal),
    principal: BigInt(row.principal),
  });
}
