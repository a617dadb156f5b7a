import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { loanKeys } from "./keys";

const collectionsSchema = z.array(z.object({ collection: z.string(), name: z.string().nullable() }));
export type AcceptedCollections = z.infer<typeof collectionsSchema>;

/** GET /collateral/collections: the ERC-721 collections the platform accepts as collateral (the collateral escrow's allow-list). */
export async function getCollateralCollections(): Promise<AcceptedCollections> {
  const { data } = await http.get<Envelope<unknown>>("/collateral/collections");
  return collectionsSchema.parse(data.data);
}

/** Only asked for when the wallet holds nothing to pledge, to say which collections would do. */
export function useCollateralCollections(enabled: boolean) {
  return useQuery({ queryKey: loanKeys.collections, queryFn: getCollateralCollections, enabled, staleTime: 60_000 });
}
