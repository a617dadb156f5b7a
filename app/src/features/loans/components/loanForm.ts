import type { z } from "zod";
import { loanRequestSchema } from "#domain/schemas/loans";
import type { LoanRequestPayload } from "../api/requestLoan";

/** The server's rule set judged in the browser: one message per field, keyed "amount", "collateral.value", ... */
export function loanFieldErrors(payload: LoanRequestPayload, only?: string[]): Record<string, string> {
  const result = loanRequestSchema.safeParse(payload);
  return result.success ? {} : issuesByField(result.error.issues, only);
}

export function issuesByField(issues: z.core.$ZodIssue[], only?: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "form";
    if (only && !only.includes(key)) continue;
    out[key] ??= issue.message;
  }
  return out;
}
