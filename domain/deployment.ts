import { z } from "zod";

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

/** The deployment record, `data/deployments/<chainId>.json`. Never committed. */
export const deploymentSchema = z.object({
  chainId: z.number().int().positive(),
  genesisHash: hash,
  deployBlock: z.number().int().nonnegative(),
  contracts: z.object({
    loanNote: address,
    marketplace: address,
    vault: address,
    /** LoanNote's CollateralEscrow: holds pledged NFTs, keeps the allow-list and emits the Collateral* events. */
    collateralEscrow: address,
    stablecoin: address,
    /** The local chain's demo NFT collection (allowed as collateral); absent on any other chain. */
    demoCollection: address.optional(),
  }),
  /** The parameters LoanNote and the marketplace were deployed with (the grace period may change on-chain since; read it there). */
  params: z.object({
    loanNote: z.object({
      gracePeriod: z.number().int().nonnegative(),
      lateFeeGracePeriod: z.number().int().nonnegative(),
      lateFeeBps: z.number().int().nonnegative(),
      defaultAfterDays: z.number().int().positive(),
    }),
    /** The marketplace's: how much a refinance must lower a loan's rate (basis points) unless it lowers the payment. */
    marketplace: z.object({ minRateImprovementBps: z.number().int().nonnegative() }),
  }),
  treasury: address,
  originator: address,
});
export type Deployment = z.infer<typeof deploymentSchema>;

/** What `GET /api/config` gives the app at run time: nothing per deployment is baked into the bundle. */
export const publicConfigSchema = z.object({
  chainId: z.number().int().positive(),
  rpcUrl: z.string(),
  explorerUrl: z.string().nullable(),
  isLocalChain: z.boolean(),
  contracts: deploymentSchema.shape.contracts.nullable(),
  treasury: address.nullable(),
  stablecoinDecimals: z.literal(6),
  /** Whether registration offers "Administrator": only when the operator set ADMIN_INVITE_CODE. */
  adminSignup: z.boolean(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const LOCAL_CHAIN_ID = 31337;
