import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { LOAN_STATUSES } from "#domain/statuses";
import { http, type Envelope } from "../../../lib/http";
import { dashboardKeys } from "./getSummary";

const loan = z.object({
  _id: z.string(),
  loanNumber: z.number(),
  amount: z.string(),
  principal: z.string().nullish(),
  purpose: z.string(),
  interestRate: z.number(),
  termMonths: z.number(),
  status: z.enum(LOAN_STATUSES),
  requestDate: z.string(),
});
export type RecentLoan = z.infer<typeof loan>;

/** GET /loans/my-loans?limit=5: the newest requests. */
export async function getRecentLoans(): Promise<RecentLoan[]> {
  const { data } = await http.get<Envelope<{ loans: unknown }>>("/loans/my-loans", { params: { limit: 5, sortBy: "requestDate", sortOrder: "desc" } });
  return z.array(loan).parse(data.data.loans);
}

export function useRecentLoans() {
  return useQuery({ queryKey: dashboardKeys.loans, queryFn: getRecentLoans, staleTime: 0, refetchInterval: 30_000 });
}
