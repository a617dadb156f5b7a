import { useQuery } from "@tanstack/react-query";
import { wireReconciliationSchema, type WireReconciliation } from "#domain/wire/reconciliation";
import { http, type Envelope } from "../../../lib/http";
import { adminKeys } from "./keys";

/** GET /admin/reconciliation: the chain, the mirror and the loans table compared at one block, and the treasury's cash proven. */
export async function getReconciliation(): Promise<{ message: string; report: WireReconciliation }> {
  const { data } = await http.get<Envelope<unknown>>("/admin/reconciliation");
  return { message: data.message ?? "", report: wireReconciliationSchema.parse(data.data) };
}

export function useReconciliation() {
  // Reads every note on the chain: run on demand (the page's button), never on a timer.
  return useQuery({ queryKey: adminKeys.reconciliation, queryFn: getReconciliation, staleTime: 0, refetchOnWindowFocus: false });
}
