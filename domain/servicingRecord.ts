import { lateFeesOwed, type ServicedLoan, type ServicingParams } from "./lateFees";
import { formatUsdAmount } from "./money";
import { amountDueNow } from "./schedule";
import { pastDue, payoffSplit, servicingStatus, type NoteLife, type PayoffSplit } from "./servicing";
import type { WireServicing } from "./wire/servicing";

/** The parameters a servicing record needs: the late fee's, which are the deployment's immutables. */
export type FeeParams = Pick<ServicingParams, "lateFeeGracePeriod" | "lateFeeBps">;

/**
 * What settles an active loan now, split as a par order prices it (LoanNote.noteStateOf): the late fees owed count
 * as interest, so 100% of par pays exactly the payoff.
 */
export function parSplit(loan: ServicedLoan, now: bigint, params: FeeParams): PayoffSplit {
  const split = payoffSplit(loan.terms, loan.repaid, now);
  return { principal: split.principal, interest: split.interest + lateFeesOwed(loan, now, params).amount };
}

/**
 * The wire's servicing record of a loan with a note (domain/wire/servicing.ts) at the chain's clock `now`, as the
 * contract's views read it: the amount past due and the interest now include the late fees owed. Money formatted
 * once here, as every amount on the wire.
 */
export function servicingRecord(loan: ServicedLoan, life: NoteLife, now: bigint, params: FeeParams): WireServicing {
  const asOf = Number(now);
  if (life === "repaid") {
    return { status: "repaid", daysPastDue: 0, amountPastDue: "0", feesOwed: "0", lateFeeCount: 0, dueDate: null, principalNow: "0", interestNow: "0", asOf };
  }
  const due = pastDue(loan.terms, loan.repaid, now);
  // A defaulted loan owes its whole balance, not a payoff: fees stop mattering to a buyer or a cure.
  const fees = life === "active" ? lateFeesOwed(loan, now, params) : { amount: 0n, count: 0 };
  const split = life === "active" ? payoffSplit(loan.terms, loan.repaid, now) : { principal: 0n, interest: 0n };
  return {
    status: servicingStatus(life, due.daysPastDue),
    daysPastDue: due.daysPastDue,
    amountPastDue: formatUsdAmount(amountDueNow(loan.terms, loan.repaid, now) + fees.amount),
    feesOwed: formatUsdAmount(fees.amount),
    lateFeeCount: fees.count,
    dueDate: Number(due.dueDate),
    principalNow: formatUsdAmount(split.principal),
    interestNow: formatUsdAmount(split.interest + fees.amount),
    asOf,
  };
}
