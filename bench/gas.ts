import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createPublicClient,
  createWalletClient,
  http,
  maxUint256,
  parseSignature,
  type Abi,
  type Address,
  type Hash,
  type Hex,
} from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { readFileSync } from "node:fs";
import { loanNoteAbi, noteMarketplaceAbi, noteVaultAbi, testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS, FREE_DEV_KEYS } from "#domain/devAccounts";
import { startAnvil } from "#devchain/anvil";
import { deployAll } from "#contracts/deploy";

// Prints `<action> <gas>` (total transaction gas, 21,000 base included) for every user-facing action, in the
// steady state: buyer, seller, fee recipient, borrower and holder already hold balances, notes and credits.
const chain = await startAnvil();
const dataDir = mkdtempSync(join(tmpdir(), "loanmint-gas-"));
try {
  const transport = http(chain.rpcUrl);
  const client = createPublicClient({ transport });
  const deployment = await deployAll({ rpcUrl: chain.rpcUrl, dataDir });
  const { loanNote, marketplace, vault, stablecoin } = deployment.contracts as Record<keyof typeof deployment.contracts, Address>;
  const viemChain = { id: 31337, name: "anvil", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [chain.rpcUrl] } } };

  const account = (key: Hex) => privateKeyToAccount(key);
  const admin = account(DEV_ACCOUNTS.deployer);
  const originator = account(DEV_ACCOUNTS.originator);
  const treasury = account(DEV_ACCOUNTS.treasury);
  const borrower = account(DEV_ACCOUNTS.demoBorrower);
  const buyer = account(DEV_ACCOUNTS.demoInvestor);
  const holder = account(FREE_DEV_KEYS[0]);
  const permitBuyer = account(FREE_DEV_KEYS[1]);
  const feeRecipient = account(FREE_DEV_KEYS[2]);

  async function send(from: PrivateKeyAccount, address: Address, abi: Abi, functionName: string, args: unknown[] = []): Promise<bigint> {
    const wallet = createWalletClient({ account: from, chain: viemChain, transport });
    const hash: Hash = await wallet.writeContract({ address, abi, functionName, args, account: from, chain: viemChain });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${functionName} reverted`);
    return receipt.gasUsed;
  }
  const note = (from: PrivateKeyAccount, fn: string, args: unknown[] = []) => send(from, loanNote, loanNoteAbi as Abi, fn, args);
  const market = (from: PrivateKeyAccount, fn: string, args: unknown[] = []) => send(from, marketplace, noteMarketplaceAbi as Abi, fn, args);
  const dollar = (from: PrivateKeyAccount, fn: string, args: unknown[] = []) => send(from, stablecoin, testDollarAbi as Abi, fn, args);
  const increaseTime = async (seconds: number) => {
    await client.request({ method: "evm_increaseTime" as never, params: [seconds] as never });
    await client.request({ method: "evm_mine" as never, params: [] as never });
  };
  async function permit(owner: PrivateKeyAccount, spender: Address, value: bigint) {
    const nonce = (await client.readContract({ address: stablecoin, abi: testDollarAbi, functionName: "nonces", args: [owner.address] })) as bigint;
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 86_400 * 400);
    const signature = await owner.signTypedData({
      domain: { name: "Test Dollar", version: "1", chainId: 31337, verifyingContract: stablecoin },
      types: { Permit: [{ name: "owner", type: "address" }, { name: "spender", type: "address" }, { name: "value", type: "uint256" }, { name: "nonce", type: "uint256" }, { name: "deadline", type: "uint256" }] },
      primaryType: "Permit",
      message: { owner: owner.address, spender, value, nonce, deadline },
    });
    const { r, s, v, yParity } = parseSignature(signature);
    return [deadline, v !== undefined ? Number(v) : yParity + 27, r, s] as const;
  }

  const principal = 1_000_000_000n;
  let nextId = 1n;
  const originate = () => note(originator, "originate", [nextId++, borrower.address, principal, 1200, 12]);
  const results: [string, bigint][] = [];

  // Steady state: every party already holds test dollars and notes; the fee goes to a third account.
  await market(admin, "setFee", [feeRecipient.address, 100]);
  for (const who of [borrower, buyer, holder, permitBuyer, feeRecipient]) await dollar(admin, "mint", [who.address, 1_000_000_000_000n]);
  await dollar(borrower, "approve", [loanNote, maxUint256]);
  await dollar(buyer, "approve", [marketplace, maxUint256]);
  for (let i = 0; i < 6; i++) await originate();
  for (const id of [1n, 2n, 3n]) await note(treasury, "transferFrom", [treasury.address, holder.address, id]);
  await note(treasury, "transferFrom", [treasury.address, buyer.address, 4n]);
  await note(treasury, "transferFrom", [treasury.address, permitBuyer.address, 5n]);
  await note(borrower, "repay", [1n, 1_000_000n]); // holder has credits not yet withdrawn

  results.push(["originate", await originate()]);
  const listed = nextId - 1n;
  results.push(["list", await market(treasury, "list", [listed, principal])]);
  results.push(["buy", await market(buyer, "buy", [listed, principal])]);
  await originate();
  await market(treasury, "list", [nextId - 1n, principal]);
  results.push(["buyWithPermit", await market(permitBuyer, "buyWithPermit", [nextId - 1n, principal, ...(await permit(permitBuyer, marketplace, principal))])]);

  await increaseTime(30 * 86_400);
  const payment = (await client.readContract({ address: loanNote, abi: loanNoteAbi, functionName: "monthlyPayment", args: [2n] })) as bigint;
  results.push(["repay (one installment)", await note(borrower, "repay", [2n, payment])]);
  results.push(["repayWithPermit", await note(holder, "repayWithPermit", [3n, payment, ...(await permit(holder, loanNote, payment))])]);
  results.push(["repay (final, burning)", await note(borrower, "repay", [1n, 2n * principal])]);

  results.push(["deposit", await note(holder, "safeTransferFrom", [holder.address, vault, 2n])]);
  results.push(["withdraw", await send(holder, vault, noteVaultAbi as Abi, "withdraw", [2n, holder.address])]);
  results.push(["withdraw credits", await note(holder, "withdrawCredits")]);

  // Baseline: a plain OpenZeppelin ERC-721, mint to and transfer between accounts that already hold one.
  const baseline = JSON.parse(readFileSync(new URL("../artifacts/contracts/test-only/BaselineERC721.sol/BaselineERC721.json", import.meta.url), "utf8"));
  const adminWallet = createWalletClient({ account: admin, chain: viemChain, transport });
  const deployHash = await adminWallet.deployContract({ abi: baseline.abi, bytecode: baseline.bytecode, account: admin, chain: viemChain });
  const base = (await client.waitForTransactionReceipt({ hash: deployHash })).contractAddress!;
  await send(admin, base, baseline.abi, "mint", [holder.address, 1n]);
  await send(admin, base, baseline.abi, "mint", [buyer.address, 2n]);
  results.push(["baseline OZ ERC-721 mint", await send(admin, base, baseline.abi, "mint", [holder.address, 3n])]);
  results.push(["baseline OZ ERC-721 transferFrom", await send(holder, base, baseline.abi, "transferFrom", [holder.address, buyer.address, 3n])]);

  for (const [action, gas] of results) console.log(`${action} ${gas}`);
} finally {
  await chain.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
