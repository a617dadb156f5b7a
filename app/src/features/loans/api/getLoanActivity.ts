import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { loanKeys } from "./keys";

const entry = z.object({
  kind: z.string(),
  tokenId: z.string().nullish(),
  amount: z.string().nullish(),
  from: z.string().nullish(),
  to: z.string().nullish(),
  txHash: z.string(),
  blockNumber: z.number(),
  logIndex: z.number(),
  time: z.string().nullish(),
});

const schema = z.object({
  tokenId: z.string().nullable(),
  holder: z.string().nullable(),
  owner: z.string().nullable(),
  burned: z.boolean(),
  totalRepaid: z.string(),
  entries: z.array(entry),
});
export type LoanActivity = z.infer<typeof schema>;
export type ActivityEntry = z.infer<typeof entry>;

/** GET /activity/loans/{id}: the loan note's on-chain life from the mirror (holder, repayments, transfers). */
export async function getLoanActivity(id: string): Promise<LoanActivity> {
  const { data } = await http.get<Envelope<unknown>>(`/activity/loans/${encodeURIComponent(id)}`);
  return schema.parse(data.data);
}

export function useLoanActivity(id: string | undefined, enabled: boolean) {
  return useQuery({ queryKey: loanKeys.activity(id ?? ""), queryFn: () => getLoanActivity(id!), enabled: Boolean(id) && enabled, staleTime: 0 });
}
