import { useQuery } from "@tanstack/react-query";
import { wireCollateralCheckSchema, type WireCollateralCheck } from "#domain/wire/collateral";
import { http, type Envelope } from "../http";

/** Shared by the borrower's request page and the admin's review, so a refetch in one refreshes the other's key too. */
export const collateralCheckKey = (loanId: string) => ["collateral-check", loanId] as const;

/**
 * GET /loans/{id}/collateral: the pledged piece read live from its collection (who holds it, whether the escrow may
 * take it, and the one approval call when it may not yet).
 */
export async function getCollateralCheck(loanId: string): Promise<WireCollateralCheck> {
  const { data } = await http.get<Envelope<unknown>>(`/loans/${encodeURIComponent(loanId)}/collateral`);
  return wireCollateralCheckSchema.parse(data.data);
}

/** Live: the wallet can move or approve the piece at any time, so it is read again every 15 s and on focus. */
export function useCollateralCheck(loanId: string | null, enabled = true) {
  return useQuery({
    queryKey: collateralCheckKey(loanId ?? ""),
    queryFn: () => getCollateralCheck(loanId!),
    enabled: Boolean(loanId) && enabled,
    staleTime: 0,
    refetchInterval: 15_000,
  });
}
