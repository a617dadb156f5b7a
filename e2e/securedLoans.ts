import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { createPublicClient, createWalletClient, erc721Abi, http, type Abi, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { collateralEscrowAbi, demoCollectionAbi, loanNoteAbi, testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { PERIOD_SECONDS } from "#domain/schedule";
import { E2E_RPC_URL } from "./stack";

/**
 * NFT-secured loans for the browser journeys, set up through the API and the chain as a borrower and an
 * admin would: pledge, approve the escrow, appraise, approve. Shared by the collateral specs.
 */
export const chain = () => createPublicClient({ chain: foundry, transport: http(E2E_RPC_URL) });
const walletOf = (key: Hex) => createWalletClient({ account: privateKeyToAccount(key), chain: foundry, transport: http(E2E_RPC_URL) });
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

export interface Contracts {
  loanNote: Address;
  stablecoin: Address;
  marketplace: Address;
  collateralEscrow: Address;
  demoCollection: Address;
}

export async function contractsOf(api: APIRequestContext): Promise<Contracts> {
  return (await (await api.get("/api/config")).json()).data.contracts;
}

async function mined(hash: Hex) {
  const receipt = await chain().waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

/** A new piece of the demo collection in `to`'s wallet (minted by the deployer, who holds the minter role). */
export async function demoPiece(contracts: Contracts, to: Address): Promise<string> {
  const deployer = walletOf(DEV_ACCOUNTS.deployer);
  const { result, request } = await chain().simulateContract({ account: deployer.account, address: contracts.demoCollection, abi: demoCollectionAbi as Abi, functionName: "mint", args: [to] });
  await mined(await deployer.writeContract(request));
  return String(result);
}

/**
 * A collection an attacker controls (contracts/test-only/HostileMetadataCollection.sol), allowed by the platform's
 * admin so its pieces can be pledged: `pieces` maps each token id to its tokenURI, minted to `to`.
 */
export async function hostileCollection(contracts: Contracts, name: string, to: Address, pieces: Record<string, string>): Promise<Address> {
  const artifact = artifactOf("HostileMetadataCollection");
  const deployer = walletOf(DEV_ACCOUNTS.deployer);
  const receipt = await mined(await deployer.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: [name] }));
  const collection = receipt.contractAddress!;
  for (const [id, uri] of Object.entries(pieces)) {
    await mined(await deployer.writeContract({ address: collection, abi: artifact.abi, functionName: "mint", args: [to, BigInt(id), uri] }));
  }
  await mined(await deployer.writeContract({ address: contracts.collateralEscrow, abi: collateralEscrowAbi as Abi, functionName: "allowCollection", args: [collection] }));
  return collection;
}

const artifactOf = (name: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, `../artifacts/contracts/test-only/${name}.sol/${name}.json`), "utf8")) as { abi: Abi; bytecode: Hex };

/**
 * A collection that can refuse to let pieces leave an address (contracts/test-only/HostileCollection.sol), allowed
 * by the admin, with piece `pieceId` minted to `to`. `refuse(from)` blocks transfers out of `from`; `refuse(null)` lifts it.
 */
export async function refusingCollection(contracts: Contracts, to: Address, pieceId: string) {
  const { abi, bytecode } = artifactOf("HostileCollection");
  const deployer = walletOf(DEV_ACCOUNTS.deployer);
  const collection = (await mined(await deployer.deployContract({ abi, bytecode, args: [] }))).contractAddress!;
  await mined(await deployer.writeContract({ address: collection, abi, functionName: "mint", args: [to, BigInt(pieceId)] }));
  await mined(await deployer.writeContract({ address: contracts.collateralEscrow, abi: collateralEscrowAbi as Abi, functionName: "allowCollection", args: [collection] }));
  const zero = "0x0000000000000000000000000000000000000000";
  return {
    collection,
    refuse: async (from: Address | null) => {
      await mined(await deployer.writeContract({ address: collection, abi, functionName: "setModes", args: [from ?? zero, false, false, zero] }));
    },
  };
}

/** The borrower pays the note off in one repayment from their own wallet (the repay page is the borrower journey's test). */
export async function payOff(contracts: Contracts, key: Hex, tokenId: string) {
  const wallet = walletOf(key);
  const amount = (await chain().readContract({ address: contracts.loanNote, abi: loanNoteAbi as Abi, functionName: "payoffAmount", args: [BigInt(tokenId)] })) as bigint;
  await mined(await wallet.writeContract({ address: contracts.stablecoin, abi: testDollarAbi as Abi, functionName: "approve", args: [contracts.loanNote, amount] }));
  await mined(await wallet.writeContract({ address: contracts.loanNote, abi: loanNoteAbi as Abi, functionName: "repay", args: [BigInt(tokenId), amount] }));
}

/** A JSON data URI of ERC-721 metadata, as an on-chain collection answers tokenURI. */
export const jsonUri = (metadata: Record<string, unknown>) => `data:application/json;base64,${Buffer.from(JSON.stringify(metadata)).toString("base64")}`;

export interface SecuredLoan {
  loanId: string;
  tokenId: string;
}

/**
 * Requests a loan secured by piece `pieceId` of `collection`, approves the escrow from the borrower's wallet, has the
 * admin appraise it and approve the loan: the origination moves the piece into escrow and mints the note to the
 * treasury. The request waits for the indexer's owner mirror to see the piece in the borrower's wallet.
 */
export async function securedLoan(
  api: APIRequestContext,
  who: { token: string; key: Hex },
  adminToken: string,
  piece: { collection: Address; pieceId: string; amount: string; appraisal: string; termMonths?: number },
): Promise<SecuredLoan> {
  const loanId = await pledgedRequest(api, who, piece);
  const check = await api.get(`/api/loans/${loanId}/collateral`, { headers: auth(who.token) });
  expect(check.ok(), await check.text()).toBeTruthy();
  const approval = (await check.json()).data.approval as { to: Address; data: Hex } | null;
  if (approval) await mined(await walletOf(who.key).sendTransaction({ to: approval.to, data: approval.data }));

  const appraised = await api.put(`/api/admin/loans/${loanId}/collateral/appraisal`, { data: { appraisal: piece.appraisal }, headers: auth(adminToken) });
  expect(appraised.ok(), await appraised.text()).toBeTruthy();
  const approved = await api.put(`/api/admin/loans/${loanId}/approve`, { data: {}, headers: auth(adminToken) });
  expect(approved.ok(), await approved.text()).toBeTruthy();
  const answer = (await approved.json()).data as { loanNumber: number; nftTokenId: string | null };
  return { loanId, tokenId: String(answer.nftTokenId ?? answer.loanNumber) };
}

/**
 * A pending request pledging piece `pieceId` of `collection`, sent once the indexer's owner mirror sees the piece in
 * the borrower's wallet; its loan id.
 */
export async function pledgedRequest(
  api: APIRequestContext,
  who: { token: string },
  piece: { collection: Address; pieceId: string; amount: string; appraisal: string; termMonths?: number },
): Promise<string> {
  const body = {
    amount: piece.amount,
    purpose: "business",
    interestRate: 9,
    termMonths: piece.termMonths ?? 12,
    collateral: { type: "nft", value: piece.appraisal, description: `Piece #${piece.pieceId}`, nft: { collection: piece.collection, tokenId: piece.pieceId } },
  };
  let loan: { _id: string; loanNumber: number } | null = null;
  await expect
    .poll(
      async () => {
        const res = await api.post("/api/loans/request", { data: body, headers: auth(who.token) });
        if (res.ok()) loan = (await res.json()).data;
        return res.ok() ? "requested" : await res.text();
      },
      { timeout: 30_000, message: "the request pledging the piece" },
    )
    .toBe("requested");
  return loan!._id;
}

/** Hands a note from the treasury to `to` (buying it is the investor journey's own test). */
export async function giveNote(contracts: Contracts, tokenId: string, to: Address) {
  const treasury = walletOf(DEV_ACCOUNTS.treasury);
  await mined(await treasury.writeContract({ address: contracts.loanNote, abi: loanNoteAbi as Abi, functionName: "transferFrom", args: [treasury.account.address, to, BigInt(tokenId)] }));
}

/** Moves the chain past the note's maturity and grace period, then has the admin mark the loan defaulted. */
export async function defaultLoan(api: APIRequestContext, contracts: Contracts, loan: SecuredLoan, adminToken: string) {
  const client = chain();
  const grace = (await client.readContract({ address: contracts.loanNote, abi: loanNoteAbi as Abi, functionName: "gracePeriod" })) as bigint;
  const terms = (await client.readContract({ address: contracts.loanNote, abi: loanNoteAbi as Abi, functionName: "loanOf", args: [BigInt(loan.tokenId)] })) as {
    start: bigint | number;
    termMonths: number;
  };
  const due = BigInt(terms.start) + BigInt(terms.termMonths) * BigInt(PERIOD_SECONDS) + grace;
  const now = (await client.getBlock()).timestamp;
  if (now <= due) {
    await client.request({ method: "evm_increaseTime" as never, params: [Number(due - now + 60n)] as never });
    await client.request({ method: "evm_mine" as never, params: [] as never });
  }
  const res = await api.post(`/api/admin/loans/${loan.loanId}/default`, { headers: auth(adminToken) });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** Who holds piece `pieceId` of `collection` on-chain, lowercase. */
export const pieceOwner = async (collection: Address, pieceId: string) =>
  ((await chain().readContract({ address: collection, abi: erc721Abi, functionName: "ownerOf", args: [BigInt(pieceId)] })) as string).toLowerCase();

/** Opens the loan wizard and walks to its collateral step with an amount, "Personal" and the default terms. */
export async function wizardAtCollateral(page: Page, amount: string) {
  await page.goto("/loans/request");
  const wizard = page.getByTestId("loan-wizard");
  await wizard.getByLabel("Loan amount (USD)").fill(amount);
  await wizard.getByLabel("Purpose").selectOption("Personal");
  await wizard.getByRole("button", { name: "Next" }).click();
  await wizard.getByRole("button", { name: "Next" }).click();
  return wizard;
}
