import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";

const entry = z.object({
  kind: z.string(),
  tokenId: z.string().nullable(),
  loanId: z.string().nullable(),
  amount: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  txHash: z.string(),
  blockNumber: z.number(),
  logIndex: z.number(),
  time: z.string().nullable(),
});
const schema = z.object({ walletAddress: z.string().nullable(), total: z.number(), transactions: z.array(entry) });
export type Transaction = z.infer<typeof entry>;

/** GET /activity: every disbursement, repayment, sale, transfer, vault move and withdrawal of the user, newest first. */
export async function getTransactions(limit: number) {
  const { data } = await http.get<Envelope<unknown>>("/activity", { params: { limit } });
  return schema.parse(data.data);
}

export function useTransactions(limit: number) {
  return useQuery({ queryKey: ["transactions", limit], queryFn: () => getTransactions(limit), staleTime: 0, refetchInterval: 30_000 });
}
