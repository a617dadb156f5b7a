import { useQuery } from "@tanstack/react-query";
import type { PublicConfig } from "#domain/deployment";
import type { Envelope } from "./http";

/** Chain id, RPC URL, explorer, contracts: nothing per deployment is baked into the bundle. */
export async function fetchConfig(): Promise<PublicConfig> {
  // The HTTP client (axios) and the schema (zod) load with the request, so a page whose first paint only
  // holds config-driven parts (the login's wallet block) paints without them.
  const [{ publicConfigSchema }, { http }] = await Promise.all([import("#domain/deployment"), import("./http")]);
  const { data } = await http.get<Envelope<unknown> | unknown>("/config");
  const body = data && typeof data === "object" && "data" in data ? (data as Envelope<unknown>).data : data;
  return publicConfigSchema.parse(body);
}

export const configQuery = { queryKey: ["config"], queryFn: fetchConfig, staleTime: Infinity } as const;

export function useRuntimeConfig() {
  return useQuery(configQuery);
}

/** Where an address, transaction or token page lives: the configured explorer, else the app's own. */
export function explorerLink(config: PublicConfig | undefined, kind: "address" | "tx" | "token", id: string) {
  const base = config?.explorerUrl?.replace(/\/$/, "");
  if (!base) return `/explorer/${kind}/${id}`;
  // Public explorers name a token by its contract, with the id as a query (Etherscan's /token/<contract>?a=<id>).
  if (kind === "token") return `${base}/token/${config?.contracts?.loanNote ?? ""}?a=${id}`;
  return `${base}/${kind}/${id}`;
}
