import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createPublicClient, http, maxUint256, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { collateralEscrowAbi, demoCollectionAbi, loanNoteAbi, noteMarketplaceAbi, testDollarAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { startAnvil, type Anvil } from "#devchain/anvil";
import { deployAll, deploymentPath } from "./deploy";
import { DEFAULTS } from "./params";

// A node suite test, not one of Hardhat's (contracts/test): `npm test` runs Hardhat's suite under --coverage,
// whose instrumented artifacts are too large to deploy on anvil, and the node suite runs after the real
// artifacts were rebuilt.
describe("deployAll", () => {
  let chain: Anvil;
  const dataDir = mkdtempSync(join(tmpdir(), "loanmint-deploy-"));

  before(async () => {
    chain = await startAnvil();
  });
  after(async () => {
    await chain.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("deploys and wires everything once, then returns the same record without sending a transaction", async () => {
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const first = await deployAll({ rpcUrl: chain.rpcUrl, dataDir });
    const treasury: Address = privateKeyToAccount(DEV_ACCOUNTS.treasury).address;
    const originator = privateKeyToAccount(DEV_ACCOUNTS.originator).address;
    assert.equal(first.chainId, 31337);
    assert.equal(first.treasury, treasury);
    assert.equal(first.originator, originator);
    assert.deepEqual(JSON.parse(readFileSync(deploymentPath(dataDir, 31337), "utf8")), first);

    const { loanNote, marketplace, vault, collateralEscrow, stablecoin } = first.contracts as Record<keyof typeof first.contracts, Address>;
    const read = <T>(address: `0x${string}`, abi: readonly unknown[], functionName: string, args: unknown[] = []) =>
      client.readContract({ address, abi: abi as never, functionName: functionName as never, args: args as never }) as Promise<T>;
    assert.equal(await read(loanNote, loanNoteAbi, "vault"), vault);
    assert.equal(await read(loanNote, loanNoteAbi, "escrow"), collateralEscrow);
    // The late-fee and default parameters the note was built with, recorded as the chain holds them.
    const onChain = {
      gracePeriod: Number(await read(loanNote, loanNoteAbi, "gracePeriod")),
      lateFeeGracePeriod: Number(await read(loanNote, loanNoteAbi, "lateFeeGracePeriod")),
      lateFeeBps: Number(await read(loanNote, loanNoteAbi, "lateFeeBps")),
      defaultAfterDays: Number(await read(loanNote, loanNoteAbi, "defaultAfterDays")),
    };
    assert.deepEqual(first.params.loanNote, onChain);
    assert.deepEqual(onChain, {
      gracePeriod: Number(DEFAULTS.gracePeriodSeconds),
      lateFeeGracePeriod: DEFAULTS.lateFeeGracePeriodSeconds,
      lateFeeBps: DEFAULTS.lateFeeBps,
      defaultAfterDays: DEFAULTS.defaultAfterDays,
    });
    assert.equal(await read(collateralEscrow, collateralEscrowAbi, "loanNote"), loanNote);
    assert.equal(await read(loanNote, loanNoteAbi, "hasRole", [await read(loanNote, loanNoteAbi, "ORIGINATOR_ROLE"), originator]), true);
    assert.equal(await read(stablecoin, testDollarAbi, "allowance", [treasury, loanNote]), maxUint256);
    assert.equal(await read(loanNote, loanNoteAbi, "isApprovedForAll", [treasury, marketplace]), true);
    assert.equal(await read(stablecoin, testDollarAbi, "balanceOf", [treasury]), DEFAULTS.treasuryFunding);
    assert.equal(await read(marketplace, noteMarketplaceAbi, "note"), loanNote);
    assert.equal(await read(loanNote, loanNoteAbi, "refinancer"), marketplace, "the marketplace is the one contract that refinances");
    assert.equal(await read(marketplace, noteMarketplaceAbi, "minRateImprovementBps"), DEFAULTS.minRateImprovementBps);
    assert.equal(first.params.marketplace.minRateImprovementBps, Number(DEFAULTS.minRateImprovementBps));
    // The local chain's demo collection: allowed as collateral, and the demo borrower holds a few pieces.
    const demoCollection = first.contracts.demoCollection as Address;
    assert.equal(await read(collateralEscrow, collateralEscrowAbi, "isCollectionAllowed", [demoCollection]), true);
    const demoBorrower = privateKeyToAccount(DEV_ACCOUNTS.demoBorrower).address;
    assert.equal(await read(demoCollection, demoCollectionAbi, "balanceOf", [demoBorrower]), BigInt(DEFAULTS.demoBorrowerPieces));
    assert.equal(await read(demoCollection, demoCollectionAbi, "ownerOf", [1n]), demoBorrower);

    const blockBefore = await client.getBlockNumber();
    assert.deepEqual(await deployAll({ rpcUrl: chain.rpcUrl, dataDir }), first);
    assert.equal(await client.getBlockNumber(), blockBefore);
  });

  it("deploys again when the record describes another chain", async () => {
    // Another genesis time, so the other chain's genesis hash differs whenever the two start.
    const other = await startAnvil({ genesisTimestamp: 1_700_000_000 });
    try {
      const record = await deployAll({ rpcUrl: chain.rpcUrl, dataDir });
      const fresh = await deployAll({ rpcUrl: other.rpcUrl, dataDir, fundTreasuryWith: 5n });
      assert.notEqual(fresh.genesisHash, record.genesisHash);
      const client = createPublicClient({ transport: http(other.rpcUrl) });
      const balance = await client.readContract({
        address: fresh.contracts.stablecoin as Address,
        abi: testDollarAbi,
        functionName: "balanceOf",
        args: [fresh.treasury as Address],
      });
      assert.equal(balance, 5n);
    } finally {
      await other.stop();
    }
  });
});
