import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { wireLoanActivitySchema, type WireActivityEntry } from "#domain/wire/activity";
import { http, type Envelope } from "../../../lib/http";
import { loanKeys } from "./keys";

export type LoanActivity = z.infer<typeof wireLoanActivitySchema>;
export type ActivityEntry = WireActivityEntry;

/** GET /activity/loans/{id}: the loan note's on-chain life from the mirror (holder, repayments, transfers). */
export async function getLoanActivity(id: string): Promise<LoanActivity> {
  const { data } = await http.get<Envelope<unknown>>(`/activity/loans/${encodeURIComponent(id)}`);
  return wireLoanActivitySchema.parse(data.data);
}

export function useLoanActivity(id: string | undefined, enabled: boolean) {
  return useQuery({ queryKey: loanKeys.activity(id ?? ""), queryFn: () => getLoanActivity(id!), enabled: Boolean(id) && enabled, staleTime: 0 });
}
