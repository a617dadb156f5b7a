import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import type { Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { startAnvil, type Anvil } from "#devchain/anvil";
import { deployAll, ensureCompiled } from "#contracts/deploy";
import { loanNoteAbi, noteMarketplaceAbi } from "#domain/abis";
import { CONTRACT_ERROR_SENTENCES } from "#domain/contractErrors";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import type { Deployment } from "#domain/deployment";
import { loadConfig } from "../config/env";
import { ChainActionError, createChainGateway, revertName, type ChainGateway } from "./gateway";

// The API's own keys on a private anvil: what an admin reads when the contract refuses an origination or a listing.
let anvil: Anvil;
let dataDir: string;
let gateway: ChainGateway;
let deployment: Deployment;
const borrower = privateKeyToAccount(DEV_ACCOUNTS.demoBorrower).address;

before(async () => {
  ensureCompiled();
  anvil = await startAnvil();
  dataDir = mkdtempSync(join(tmpdir(), "lm-gateway-"));
  deployment = await deployAll({ rpcUrl: anvil.rpcUrl, dataDir });
  gateway = createChainGateway(loadConfig({ DATA_DIR: dataDir, RPC_URL: anvil.rpcUrl, JWT_SECRET: randomUUID() + randomUUID(), LOG_LEVEL: "silent" }));
});
after(async () => {
  await anvil?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const originate = (tokenId: bigint) =>
  gateway.send({ signer: "originator", address: deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "originate", args: [tokenId, borrower, 1_000_000_000n, 1200, 12] });

test("a transaction typed by the ABI is sent and mined", async () => {
  const receipt = await originate(1n);
  assert.equal(receipt.status, "success");
  const loan = await gateway.publicClient.readContract({ address: deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "loanOf", args: [1n] });
  assert.equal(loan.principal, 1_000_000_000n);
});

test("a second origination of a loan is refused with the contract's sentence and its error name", async () => {
  const refused = await originate(1n).then(
    () => assert.fail("the note was minted twice"),
    (error: unknown) => error,
  );
  assert.ok(refused instanceof ChainActionError);
  assert.deepEqual([refused.message, refused.revert], [CONTRACT_ERROR_SENTENCES.LoanAlreadyExists, "LoanAlreadyExists"]);
});

test("a listing of someone else's note is refused in words, not as a raw revert", async () => {
  await originate(2n);
  // The new note belongs to the treasury, so a listing by the originator is someone else's.
  const refused = await gateway.send({ signer: "originator", address: deployment.contracts.marketplace as Address, abi: noteMarketplaceAbi, functionName: "list", args: [2n, 500_000_000n] }).then(
    () => assert.fail("someone else's note was listed"),
    (error: unknown) => error,
  );
  assert.ok(refused instanceof ChainActionError);
  assert.equal(refused.message, CONTRACT_ERROR_SENTENCES.NotTokenOwner);
});

test("a read of a note never minted is recognised by its error name", async () => {
  const error = await gateway.publicClient.readContract({ address: deployment.contracts.loanNote as Address, abi: loanNoteAbi, functionName: "loanOf", args: [999n] }).catch((e: unknown) => e);
  assert.equal(revertName(error), "LoanNotFound");
});

// Compiled, never run: send refuses what the contracts do not have (tsc checks these lines).
export function sendIsTypedByTheAbi(address: Address) {
  // @ts-expect-error LoanNote has no function of this name.
  void gateway.send({ signer: "treasury", address, abi: loanNoteAbi, functionName: "mintForFree", args: [] });
  // @ts-expect-error withdrawCredits takes no argument.
  void gateway.send({ signer: "treasury", address, abi: loanNoteAbi, functionName: "withdrawCredits", args: [1n] });
  // @ts-expect-error list takes a token id and a price, both integers.
  void gateway.send({ signer: "treasury", address, abi: noteMarketplaceAbi, functionName: "list", args: [1n, "100"] });
  // @ts-expect-error balanceOf only reads: it is no transaction.
  void gateway.send({ signer: "treasury", address, abi: loanNoteAbi, functionName: "balanceOf", args: [address] });
}

// An automining chain mines a transaction as it arrives: the indexer once recorded a loan "defaulted" before the API
// recorded who sent the default, and the timeline read the outcome before its cause.
test("a transaction's hash is handed to its record before the node has heard of the transaction", async () => {
  const seen: [string, string][] = [];
  const receipt = await gateway.send({
    signer: "originator",
    address: deployment.contracts.loanNote as Address,
    abi: loanNoteAbi,
    functionName: "originate",
    args: [10n, borrower, 1_000_000_000n, 1200, 12],
    onSent: async (hash) => {
      seen.push([
        hash,
        await gateway.publicClient.getTransaction({ hash }).then(
          () => "known",
          () => "unknown",
        ),
      ]);
    },
  });
  assert.equal(receipt.status, "success");
  assert.deepEqual(seen, [[receipt.transactionHash, "unknown"]]);
});

test("a record that fails sends nothing: the account's nonce is unchanged and the note is not minted", async () => {
  const originator = privateKeyToAccount(DEV_ACCOUNTS.originator).address;
  const nonce = await gateway.publicClient.getTransactionCount({ address: originator });
  const refused = gateway.send({
    signer: "originator",
    address: deployment.contracts.loanNote as Address,
    abi: loanNoteAbi,
    functionName: "originate",
    args: [11n, borrower, 1_000_000_000n, 1200, 12],
    onSent: () => Promise.reject(new Error("the database is down")),
  });
  await assert.rejects(refused, { message: "The chain could not be reached or refused the transaction: the database is down" });
  assert.equal(await gateway.publicClient.getTransactionCount({ address: originator }), nonce);
  assert.equal((await originate(11n)).status, "success", "the next transaction takes the nonce the failed one did not use");
});
