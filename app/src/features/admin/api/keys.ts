/** Every admin query lives under "admin", so a decision can refresh them all at once. */
export const adminKeys = {
  all: ["admin"] as const,
  dashboard: ["admin", "dashboard"] as const,
  stats: ["admin", "loan-stats"] as const,
  loans: (params: object) => ["admin", "loans", params] as const,
  requests: (params: object) => ["admin", "requests", params] as const,
  loan: (id: string) => ["admin", "loan", id] as const,
  users: (params: object) => ["admin", "users", params] as const,
  user: (id: string) => ["admin", "user", id] as const,
  treasury: ["admin", "treasury"] as const,
  treasuryOffers: ["admin", "treasury", "offers"] as const,
  nfts: (params: object) => ["admin", "nfts", params] as const,
  contact: ["admin", "contact"] as const,
  reconciliation: ["admin", "reconciliation"] as const,
};
