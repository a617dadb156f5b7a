/**
 * The local chain's well-known dev accounts (anvil and Hardhat share them). Public knowledge, never
 * used on any other chain. Roles: #0 deployer and contract admin, #1 originator, #2 treasury, #3 demo
 * borrower, #4 demo investor, #5 demo admin's wallet.
 */
export const DEV_ACCOUNTS = {
  deployer: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  originator: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  treasury: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  demoBorrower: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  demoInvestor: "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  demoAdmin: "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
  /** #9: the dev faucet pays from here (ETH from genesis, test dollars from the deploy), never from the deployer. */
  faucet: "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
} as const satisfies Record<string, `0x${string}`>;

/** #6 to #8: free for people trying the local dev wallet. */
export const FREE_DEV_KEYS = [
  "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
  "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
  "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
] as const satisfies readonly `0x${string}`[];

export type DevRole = keyof typeof DEV_ACCOUNTS;
