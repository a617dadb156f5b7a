export const loanKeys = {
  all: ["loans"] as const,
  mine: (params: object) => ["loans", "mine", params] as const,
  one: (id: string) => ["loans", "one", id] as const,
  activity: (id: string) => ["loans", "activity", id] as const,
  walletNfts: ["loans", "wallet-nfts"] as const,
  collections: ["loans", "collateral-collections"] as const,
};
