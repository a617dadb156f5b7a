export const orderKeys = {
  all: ["orders"] as const,
  book: (tokenId: string) => ["orders", "book", tokenId] as const,
  mine: ["orders", "mine"] as const,
};
