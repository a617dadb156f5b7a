import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPublicClient, createWalletClient, getAddress, getContractAddress, http, maxUint256, type Abi, type Address, type Hex, type PublicClient, type WalletClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { LOCAL_CHAIN_ID, deploymentSchema, type Deployment } from "#domain/deployment";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { isPublishedDevKey } from "#domain/publishedDevKeys";
import { ensureCompiled, readArtifact, type ContractName } from "./artifacts";
import { DEFAULTS } from "./params";

export { ensureCompiled } from "./artifacts";

export interface DeployOptions {
  rpcUrl: string;
  /** The record goes to `<dataDir>/deployments/<chainId>.json`. */
  dataDir: string;
  deployerKey?: Hex;
  treasuryKey?: Hex;
  originatorKey?: Hex;
  /** Test dollars minted to the treasury when the test dollar is deployed. */
  fundTreasuryWith?: bigint;
  /** An existing stablecoin (a public network's USDC); when set no test dollar is deployed or minted. */
  stablecoin?: Address;
}

export function deploymentPath(dataDir: string, chainId: number): string {
  return join(dataDir, "deployments", `${chainId}.json`);
}

/** The chain's record when it still describes this chain: same genesis block and code at every address. */
async function existingDeployment(client: PublicClient, path: string, genesisHash: Hex): Promise<Deployment | null> {
  if (!existsSync(path)) return null;
  const parsed = deploymentSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success || parsed.data.genesisHash.toLowerCase() !== genesisHash.toLowerCase()) return null;
  for (const address of Object.values(parsed.data.contracts).filter(Boolean)) {
    const code = await client.getCode({ address: address as Address });
    if (!code || code === "0x") return null;
  }
  return parsed.data;
}

/**
 * Deploys the test dollar (unless a stablecoin is given), LoanNote (which creates its NoteVault and its
 * CollateralEscrow) and
 * NoteMarketplace, grants the originator its role, makes the treasury approve the note contract for the
 * stablecoin and the marketplace for its notes, funds the treasury, and writes the deployment record.
 * On the local chain it also deploys the demo NFT collection, allows it as collateral on the escrow and gives the demo
 * borrower a few pieces.
 * Idempotent per chain: a record whose genesis hash and contract code still match is returned as it is.
 */
export async function deployAll(options: DeployOptions): Promise<Deployment> {
  const transport = http(options.rpcUrl);
  const client = createPublicClient({ transport }) as PublicClient;
  const chainId = await client.getChainId();
  const genesis = await client.getBlock({ blockNumber: 0n });
  const path = deploymentPath(options.dataDir, chainId);
  const existing = await existingDeployment(client, path, genesis.hash!);
  if (existing) return existing;

  const devDefault = (key: Hex | undefined, dev: Hex, role: string): Hex => {
    // Off the local chain a key anyone can look up would give its contracts' roles and funds away.
    if (key && chainId !== LOCAL_CHAIN_ID && isPublishedDevKey(key)) throw new Error(`the ${role} key is one of anvil's published dev keys: on chain ${chainId} use a key of your own`);
    if (key) return key;
    if (chainId !== LOCAL_CHAIN_ID) throw new Error(`deployAll needs the ${role} key on chain ${chainId}`);
    return dev;
  };
  const deployer = privateKeyToAccount(devDefault(options.deployerKey, DEV_ACCOUNTS.deployer, "deployer"));
  const treasury = privateKeyToAccount(devDefault(options.treasuryKey, DEV_ACCOUNTS.treasury, "treasury"));
  const originator = privateKeyToAccount(devDefault(options.originatorKey, DEV_ACCOUNTS.originator, "originator"));
  const chain = { id: chainId, name: `chain-${chainId}`, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [options.rpcUrl] } } };
  const asDeployer = createWalletClient({ account: deployer, chain, transport });
  const asTreasury = createWalletClient({ account: treasury, chain, transport });

  ensureCompiled();
  let deployBlock: bigint | undefined;

  async function deploy(name: ContractName, args: unknown[]): Promise<Address> {
    const { abi, bytecode } = readArtifact(name);
    const hash = await asDeployer.deployContract({ abi, bytecode, args });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`deploying ${name} failed (${hash})`);
    deployBlock ??= receipt.blockNumber;
    return getAddress(receipt.contractAddress);
  }

  async function send(wallet: WalletClient, address: Address, abi: Abi, functionName: string, args: unknown[]): Promise<void> {
    const hash = await wallet.writeContract({ address, abi, functionName, args, account: wallet.account!, chain });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${functionName} failed (${hash})`);
  }

  const deployedDollar = !options.stablecoin;
  const stablecoin = options.stablecoin ?? (await deploy("TestDollar", [deployer.address, DEFAULTS.faucetAmount, DEFAULTS.faucetCooldownSeconds]));
  const loanNoteParams = {
    gracePeriod: Number(DEFAULTS.gracePeriodSeconds),
    lateFeeGracePeriod: DEFAULTS.lateFeeGracePeriodSeconds,
    lateFeeBps: DEFAULTS.lateFeeBps,
    defaultAfterDays: DEFAULTS.defaultAfterDays,
  };
  // LoanNote trusts one refinancer, the marketplace, fixed at construction: it is the deployer's next contract.
  const refinancer = getContractAddress({ from: deployer.address, nonce: BigInt(await client.getTransactionCount({ address: deployer.address })) + 1n });
  const loanNote = await deploy("LoanNote", [
    stablecoin,
    deployer.address,
    treasury.address,
    DEFAULTS.gracePeriodSeconds,
    loanNoteParams.lateFeeGracePeriod,
    loanNoteParams.lateFeeBps,
    loanNoteParams.defaultAfterDays,
    refinancer,
  ]);
  const noteAbi = readArtifact("LoanNote").abi;
  const vault = (await client.readContract({ address: loanNote, abi: noteAbi, functionName: "vault" })) as Address;
  const collateralEscrow = (await client.readContract({ address: loanNote, abi: noteAbi, functionName: "escrow" })) as Address;
  const marketplace = await deploy("NoteMarketplace", [loanNote, stablecoin, deployer.address, treasury.address, DEFAULTS.feeBps, DEFAULTS.minRateImprovementBps]);
  if (marketplace !== getAddress(refinancer)) throw new Error(`the marketplace landed at ${marketplace}, not at LoanNote's refinancer ${refinancer}`);

  const originatorRole = (await client.readContract({ address: loanNote, abi: noteAbi, functionName: "ORIGINATOR_ROLE" })) as Hex;
  await send(asDeployer, loanNote, noteAbi, "grantRole", [originatorRole, originator.address]);
  const dollarAbi = readArtifact("TestDollar").abi;
  await send(asTreasury, stablecoin, dollarAbi, "approve", [loanNote, maxUint256]);
  await send(asTreasury, loanNote, noteAbi, "setApprovalForAll", [marketplace, true]);
  if (deployedDollar) {
    await send(asDeployer, stablecoin, dollarAbi, "mint", [treasury.address, options.fundTreasuryWith ?? DEFAULTS.treasuryFunding]);
  }
  if (deployedDollar && chainId === LOCAL_CHAIN_ID) {
    // The dev faucet pays test dollars from its own account, so it needs no role on any contract.
    await send(asDeployer, stablecoin, dollarAbi, "mint", [privateKeyToAccount(DEV_ACCOUNTS.faucet).address, DEFAULTS.faucetFunding]);
  }

  let demoCollection: Address | undefined;
  if (chainId === LOCAL_CHAIN_ID) {
    demoCollection = await deploy("DemoCollection", [deployer.address, DEFAULTS.demoCollectionFaucetCooldownSeconds]);
    await send(asDeployer, collateralEscrow, readArtifact("CollateralEscrow").abi, "allowCollection", [demoCollection]);
    const demoBorrower = privateKeyToAccount(DEV_ACCOUNTS.demoBorrower).address;
    const artAbi = readArtifact("DemoCollection").abi;
    for (let i = 0; i < DEFAULTS.demoBorrowerPieces; i++) await send(asDeployer, demoCollection, artAbi, "mint", [demoBorrower]);
  }

  const deployment: Deployment = deploymentSchema.parse({
    chainId,
    genesisHash: genesis.hash,
    deployBlock: Number(deployBlock),
    contracts: { loanNote, marketplace, vault, collateralEscrow, stablecoin, ...(demoCollection ? { demoCollection } : {}) },
    params: { loanNote: loanNoteParams, marketplace: { minRateImprovementBps: Number(DEFAULTS.minRateImprovementBps) } },
    treasury: treasury.address,
    originator: originator.address,
  });
  mkdirSync(join(options.dataDir, "deployments"), { recursive: true });
  writeFileSync(path, `${JSON.stringify(deployment, null, 2)}\n`);
  return deployment;
}
