import { statementPeriodQuery } from "#domain/schemas/statements";
import { wireLoanStatementSchema, wirePortfolioStatementSchema } from "#domain/wire/statement";
import type { OperationGroup } from "../types";

export const statementsOperations: OperationGroup = {
  tag: "Statements",
  description: "A loan's and an investor's statements, read from the chain mirror; amounts are exact USD decimal strings.",
  operations: {
    "GET /api/loans/{id}/statement": {
      summary: "A loan's statement",
      description:
        "The schedule, each repayment with its transaction and block time split into interest and principal, fees (none yet), and totals: paid, interest and principal paid, outstanding principal and the payoff at the chain's clock. For the loan's borrower or an admin; another user's loan is a 404; a loan without a note yet is a 409.",
      access: "user",
      data: wireLoanStatementSchema,
    },
    "GET /api/portfolio/statement": {
      summary: "My investor statement for a period",
      description:
        "For the signed-in user's verified wallet, the whole UTC days `from`..`to` (YYYY-MM-DD, both included, at most 10 years; a bad period is a 400 saying why): notes bought and sold with price and fee, repayments credited (owned or as vault depositor), credits withdrawn, each note's realised or expected return and IRR, and the portfolio's XIRR (percent a year).",
      access: "user",
      query: statementPeriodQuery,
      data: wirePortfolioStatementSchema,
    },
  },
};
