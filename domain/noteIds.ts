/**
 * LoanNote's REFINANCED_ID_OFFSET: a refinance mints the new note at the old id + 2^128, so an id's high 128 bits are
 * its generation and its low 128 bits the loan number (docs/adr/0043-refinancing.md).
 */
export const REFINANCED_ID_OFFSET = 2n ** 128n;

/** The loan number a note id carries: the same for a loan's first note and every note a refinance gave it. */
export function loanNumberOf(tokenId: bigint): bigint {
  return tokenId % REFINANCED_ID_OFFSET;
}
