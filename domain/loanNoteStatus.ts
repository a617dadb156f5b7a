/**
 * LoanNote's `Status` enum as `loanOf(...).status` answers it (the ABI carries only a uint8): None, Active,
 * Repaid, Defaulted, in the contract's order. A test reads the enum from contracts/LoanNote.sol.
 */
export const LOAN_NOTE_STATUS = { none: 0, active: 1, repaid: 2, defaulted: 3 } as const;
export type LoanNoteStatus = (typeof LOAN_NOTE_STATUS)[keyof typeof LOAN_NOTE_STATUS];
