import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";

const summarySchema = z.object({
  walletAddress: z.string().nullable(),
  portfolioValue: z.string(),
  notesHeld: z.number(),
  creditsAvailable: z.string(),
  totalLoans: z.number(),
  activeLoans: z.number(),
  totalBorrowed: z.string(),
  nftLoans: z.number(),
  performance: z.object({
    installmentsDue: z.number(),
    installmentsOnTime: z.number(),
    onTimeRate: z.number().nullable(),
    totalRepaid: z.string(),
    interestEarned: z.string(),
    repaymentsReceived: z.string(),
  }),
});
export type Summary = z.infer<typeof summarySchema>;

export const dashboardKeys = {
  all: ["dashboard"] as const,
  summary: ["dashboard", "summary"] as const,
  transactions: ["dashboard", "transactions"] as const,
  loans: ["dashboard", "loans"] as const,
  notices: ["dashboard", "notices"] as const,
};

/** GET /activity/summary: the four tiles and the Performance block. */
export async function getSummary(): Promise<Summary> {
  const { data } = await http.get<Envelope<unknown>>("/activity/summary");
  return summarySchema.parse(data.data);
}

export function useSummary() {
  return useQuery({ queryKey: dashboardKeys.summary, queryFn: getSummary, staleTime: 0, refetchInterval: 30_000 });
}
