import { pgSequence } from "drizzle-orm/pg-core";

/** A loan's loanNumber, which is also its note's token id. */
export const loanNumberSeq = pgSequence("loan_number_seq", { startWith: 1, increment: 1, minValue: 1 });
