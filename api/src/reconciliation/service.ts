import { BaseError, ContractFunctionRevertedError, type Address, type PublicClient } from "viem";
import { collateralEscrowAbi, loanNoteAbi, noteMarketplaceAbi, noteVaultAbi, testDollarAbi } from "#domain/abis";
import type { Deployment } from "#domain/deployment";
import { formatUsdAmount } from "#domain/money";
import { REFINANCED_ID_OFFSET } from "#domain/noteIds";
import {
  RECONCILIATION_MISSING as MISSING,
  TREASURY_CATEGORIES,
  type ReconciliationField,
  type TreasuryCategory,
  type WireReconciliation,
  type WireReconciliationDifference,
} from "#domain/wire/reconciliation";
import type { LoanRow } from "#db/schema";
import type { ReconciliationRepository } from "./repository";

const ZERO = "0x0000000000000000000000000000000000000000";
const CHAIN_STATUS = ["none", "active", "repaid", "defaulted"] as const;
/** The loans table's word for each note status: a repaid note completes its loan. */
const LOAN_STATUS_AS_NOTE: Record<string, string> = { active: "active", completed: "repaid", defaulted: "defaulted" };

/** A value as shown, and the key it is compared by when the sources spell the same fact differently. */
interface Seen {
  shown: string | null;
  key?: string | null;
}
const seen = (shown: string | null, key?: string | null): Seen => ({ shown, key });
const keyOf = (value: Seen) => (value.key === undefined ? value.shown : value.key);

/** Only a revert means "the chain has no such thing"; a node that failed to answer must fail the report, not fake a difference. */
async function orMissing<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof BaseError && error.walk((e) => e instanceof ContractFunctionRevertedError)) return null;
    throw error;
  }
}

interface Movement {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  from: string;
  to: string;
  amount: bigint;
}

/**
 * The reconciliation an auditor can check: every note's state on the chain, in the mirror and in the loans table,
 * and the treasury's stablecoin proven from the chain's logs, all read at one block.
 */
export function createReconciliationService(deps: { repo: ReconciliationRepository; publicClient: PublicClient; deployment: () => Promise<Deployment> }) {
  const { repo, publicClient: client } = deps;

  async function report(): Promise<WireReconciliation> {
    const deployment = await deps.deployment();
    const snapshot = await repo.snapshot();
    // Never the client's cached head: a stale one would read the chain behind the mirror and report its newest rows.
    const head = await client.getBlockNumber({ cacheTime: 0 });
    // The chain is read where the mirror stands, so an indexer a few blocks behind is not reported as a difference.
    const blockNumber = snapshot.mirrorBlock === null ? head : BigInt(Math.min(snapshot.mirrorBlock, Number(head)));
    const loanNote = { address: deployment.contracts.loanNote as Address, abi: loanNoteAbi, blockNumber } as const;
    const vault = deployment.contracts.vault.toLowerCase();
    const escrow = { address: deployment.contracts.collateralEscrow as Address, abi: collateralEscrowAbi, blockNumber } as const;
    const treasury = deployment.treasury.toLowerCase();
    const fromBlock = BigInt(deployment.deployBlock);

    const originated = await client.getContractEvents({ ...loanNote, eventName: "LoanOriginated", fromBlock, toBlock: blockNumber, strict: true });
    const ids = new Set<bigint>([...originated.map((log) => log.args.tokenId), ...snapshot.notes.map((note) => note.tokenId)]);
    for (const loan of snapshot.loans) if (loan.mintStatus !== "none" || loan.nftTokenId !== null) ids.add(loan.loanNumber);
    const tokenIds = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const knownLoans = new Set(snapshot.loans.map((loan) => loan.loanNumber));
    const extraLoans = await repo.loansNumbered(tokenIds.filter((id) => !knownLoans.has(id)));
    const loanOf = new Map<bigint, LoanRow>([...snapshot.loans, ...extraLoans].map((loan) => [loan.loanNumber, loan]));

    // Every read at once: the client batches them into a few JSON-RPC round trips, all at `blockNumber`.
    const onChain = await Promise.all(
      tokenIds.map(async (tokenId) => {
        const [loan, ownership, pledge, depositor] = await Promise.all([
          orMissing(client.readContract({ ...loanNote, functionName: "loanOf", args: [tokenId] })),
          client.readContract({ ...loanNote, functionName: "ownershipOf", args: [tokenId] }),
          client.readContract({ ...escrow, functionName: "collateralOf", args: [tokenId] }),
          client.readContract({ address: vault as Address, abi: noteVaultAbi, functionName: "depositorOf", args: [tokenId], blockNumber }),
        ]);
        return { tokenId, loan, owner: ownership[0].toLowerCase(), pledge, depositor: depositor.toLowerCase() };
      }),
    );

    const differences: WireReconciliationDifference[] = [];
    const compare = (tokenId: string | null, account: string | null, field: ReconciliationField, chain: Seen, mirror: Seen, database: Seen) => {
      const keys = [chain, mirror, database].filter((value) => value.shown !== null).map(keyOf);
      if (keys.some((key) => key !== keys[0])) differences.push({ tokenId, account, field, chain: chain.shown, mirror: mirror.shown, database: database.shown });
    };
    const usd = (value: bigint | null | undefined) => seen(value === null || value === undefined ? MISSING : formatUsdAmount(value));
    const notHeld = seen(null);

    const mirrorNotes = new Map(snapshot.notes.map((note) => [note.tokenId, note]));
    const mirrorPledges = new Map(snapshot.collateral.map((row) => [row.tokenId, row]));
    const holders = new Set<string>([treasury]);
    for (const read of onChain) {
      const id = read.tokenId.toString();
      const loan = read.loan;
      const exists = loan !== null && loan.status !== 0;
      const note = mirrorNotes.get(read.tokenId);
      const record = loanOf.get(read.tokenId);
      compare(id, null, "tokenId", seen(exists ? id : MISSING), seen(note ? id : MISSING), seen(record?.nftTokenId ?? MISSING));
      // A mint that failed or is still in flight is no note yet: where no source claims one, nothing else is owed.
      if (!exists && !note && record?.mintStatus !== "minted") continue;
      // The loans table's claim to a note is its mint status, compared below; "exists" is the chain's and the mirror's.
      compare(id, null, "exists", seen(exists ? "yes" : MISSING), seen(note ? "yes" : MISSING), notHeld);
      const mint = record?.mintStatus ?? MISSING;
      compare(id, null, "mintStatus", seen(exists ? "minted" : MISSING), seen(note ? "minted" : MISSING), seen(mint, mint === "minted" ? "minted" : MISSING));
      compare(id, null, "principal", usd(exists ? loan.principal : null), usd(note?.principal), usd(record?.principal));
      compare(id, null, "repaid", usd(exists ? loan.repaid : null), usd(note?.totalRepaid), notHeld);
      compare(id, null, "feesPaidThrough", seen(exists ? String(loan.feesPaidThrough) : MISSING), seen(note ? String(note.feesPaidThrough) : MISSING), notHeld);
      const status = record ? seen(record.status, LOAN_STATUS_AS_NOTE[record.status] ?? record.status) : seen(MISSING);
      compare(id, null, "status", seen(exists ? (CHAIN_STATUS[loan.status] ?? String(loan.status)) : MISSING), seen(note?.status ?? MISSING), status);
      const holder = read.owner === vault && read.depositor !== ZERO ? read.depositor : read.owner;
      if (exists) {
        compare(id, null, "owner", seen(read.owner), seen(note?.owner ?? MISSING), notHeld);
        compare(id, null, "holder", seen(holder), seen(note?.holder ?? MISSING), notHeld);
      }
      if (holder !== ZERO) holders.add(holder);
      const [collection, collateralId] = read.pledge;
      const chainPledge = collection === ZERO ? "none" : `${collection.toLowerCase()} #${collateralId}`;
      const row = mirrorPledges.get(read.tokenId);
      // The escrow holds the piece while locked or after a failed return; returned or claimed, collateralOf is empty.
      const mirrorPledge = row && (row.state === "locked" || row.state === "returnFailed") ? `${row.collection} #${row.collateralId}` : "none";
      compare(id, null, "collateral", seen(chainPledge), seen(mirrorPledge), notHeld);
    }

    // The holders' unwithdrawn credits: each account the chain or the mirror names.
    const mirrorCredits = new Map(snapshot.credits.map((row) => [row.account, row.credited - row.withdrawn]));
    for (const account of mirrorCredits.keys()) holders.add(account);
    const accounts = [...holders].sort();
    const balances = await Promise.all(accounts.map((account) => client.readContract({ ...loanNote, functionName: "creditsOf", args: [account as Address] })));
    for (const [i, account] of accounts.entries()) {
      const mirrored = mirrorCredits.get(account);
      if (mirrored === undefined && balances[i] === 0n) continue;
      compare(null, account, "credits", usd(balances[i]), usd(mirrored), notHeld);
    }

    // A refinance's note is lent by its new lender to the old holder and the borrower, never by the treasury.
    const lentByTreasury = originated.filter((log) => log.args.tokenId < REFINANCED_ID_OFFSET);
    const treasuryProof = await proveTreasury(deployment, blockNumber, lentByTreasury);
    const clean = differences.length === 0 && treasuryProof.balances && treasuryProof.unexplained.length === 0 && treasuryProof.credits.balances && treasuryProof.unfundedOriginations.length === 0;
    return { blockNumber: Number(blockNumber), mirrorBlock: snapshot.mirrorBlock, notesCompared: tokenIds.length, differences, treasury: treasuryProof, clean };
  }

  /**
   * The treasury's stablecoin from the deploy block to `blockNumber`, from the chain's logs alone: each Transfer in or
   * out is matched, within its transaction, to the contract event that explains it (an origination's principal, a
   * credit withdrawal, a sale's net proceeds, a fee); a mint to the treasury is funding; anything else is unexplained.
   */
  async function proveTreasury(deployment: Deployment, blockNumber: bigint, originated: { args: { tokenId: bigint; borrower: string; principal: bigint }; transactionHash: string }[]) {
    const treasury = deployment.treasury.toLowerCase() as Address;
    const fromBlock = BigInt(deployment.deployBlock);
    const range = { fromBlock, toBlock: blockNumber, strict: true } as const;
    const coin = { address: deployment.contracts.stablecoin as Address, abi: testDollarAbi } as const;
    const loanNote = { address: deployment.contracts.loanNote as Address, abi: loanNoteAbi } as const;
    const marketplace = { address: deployment.contracts.marketplace as Address, abi: noteMarketplaceAbi } as const;
    const [incoming, outgoing, withdrawn, repaid, lateFees, sold, filled, opening, closing, owed] = await Promise.all([
      client.getContractEvents({ ...coin, ...range, eventName: "Transfer", args: { to: treasury } }),
      client.getContractEvents({ ...coin, ...range, eventName: "Transfer", args: { from: treasury } }),
      client.getContractEvents({ ...loanNote, ...range, eventName: "CreditsWithdrawn", args: { account: treasury } }),
      client.getContractEvents({ ...loanNote, ...range, eventName: "Repaid", args: { beneficiary: treasury } }),
      client.getContractEvents({ ...loanNote, ...range, eventName: "LateFeesPaid", args: { beneficiary: treasury } }),
      client.getContractEvents({ ...marketplace, ...range, eventName: "Sold" }),
      client.getContractEvents({ ...marketplace, ...range, eventName: "OrderFilled" }),
      balanceBefore(deployment, fromBlock),
      client.readContract({ ...coin, functionName: "balanceOf", args: [treasury], blockNumber }),
      client.readContract({ ...loanNote, functionName: "creditsOf", args: [treasury], blockNumber }),
    ]);

    // What each transaction's contract events say should have moved, to be matched one for one with its transfers.
    const expected = new Map<string, { category: TreasuryCategory; from: string; to: string; amount: bigint; used: boolean }[]>();
    const expect = (txHash: string, category: TreasuryCategory, from: string, to: string, amount: bigint) => {
      const list = expected.get(txHash) ?? [];
      list.push({ category, from: from.toLowerCase(), to: to.toLowerCase(), amount, used: false });
      expected.set(txHash, list);
    };
    for (const log of originated) expect(log.transactionHash, "principalLent", treasury, log.args.borrower, log.args.principal);
    for (const log of withdrawn) expect(log.transactionHash, "creditsWithdrawn", deployment.contracts.loanNote, treasury, log.args.amount);
    for (const log of [...sold, ...filled]) {
      const { seller, buyer, price, fee } = log.args;
      if (seller.toLowerCase() === treasury) expect(log.transactionHash, "saleProceeds", buyer, treasury, price - fee);
      // Paid to the fee recipient: it is a treasury inflow only where the treasury is that recipient.
      if (fee > 0n) expect(log.transactionHash, "fees", buyer, treasury, fee);
    }

    const toMovement = (log: (typeof incoming)[number]): Movement => ({
      txHash: log.transactionHash,
      logIndex: log.logIndex,
      blockNumber: Number(log.blockNumber),
      from: log.args.from.toLowerCase(),
      to: log.args.to.toLowerCase(),
      amount: log.args.value,
    });
    const movements = [...incoming.map(toMovement), ...outgoing.map(toMovement)]
      // A transfer from the treasury to itself shows in both queries; it moves nothing.
      .filter((m, i, all) => all.findIndex((o) => o.txHash === m.txHash && o.logIndex === m.logIndex) === i)
      .sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
    const lines = new Map<TreasuryCategory, { inflow: bigint; outflow: bigint; transfers: number }>(TREASURY_CATEGORIES.map((c) => [c, { inflow: 0n, outflow: 0n, transfers: 0 }]));
    const unexplained = [];
    let inflows = 0n;
    let outflows = 0n;
    for (const move of movements) {
      const inbound = move.to === treasury;
      if (inbound) inflows += move.amount;
      if (move.from === treasury) outflows += move.amount;
      const match = (expected.get(move.txHash) ?? []).find((e) => !e.used && e.from === move.from && e.to === move.to && e.amount === move.amount);
      if (match) match.used = true;
      const category: TreasuryCategory = match ? match.category : inbound && move.from === ZERO ? "funding" : "unexplained";
      const line = lines.get(category)!;
      if (inbound) line.inflow += move.amount;
      if (move.from === treasury) line.outflow += move.amount;
      line.transfers += 1;
      if (category === "unexplained") unexplained.push({ ...move, amount: formatUsdAmount(move.amount), direction: inbound ? ("in" as const) : ("out" as const) });
    }
    const unfunded = originated
      .filter((log) => !(expected.get(log.transactionHash) ?? []).some((e) => e.category === "principalLent" && e.used && e.amount === log.args.principal))
      .map((log) => ({ tokenId: log.args.tokenId.toString(), txHash: log.transactionHash, principal: formatUsdAmount(log.args.principal) }));
    const credited = repaid.reduce((sum, log) => sum + log.args.amount, 0n);
    const lateFeesCredited = lateFees.reduce((sum, log) => sum + log.args.amount, 0n);
    const withdrawnTotal = withdrawn.reduce((sum, log) => sum + log.args.amount, 0n);
    return {
      address: treasury,
      fromBlock: deployment.deployBlock,
      openingBalance: formatUsdAmount(opening),
      closingBalance: formatUsdAmount(closing),
      inflows: formatUsdAmount(inflows),
      outflows: formatUsdAmount(outflows),
      lines: [...lines].map(([category, line]) => ({ category, inflow: formatUsdAmount(line.inflow), outflow: formatUsdAmount(line.outflow), transfers: line.transfers })),
      balances: closing - opening === inflows - outflows,
      unexplained,
      credits: {
        credited: formatUsdAmount(credited),
        lateFees: formatUsdAmount(lateFeesCredited),
        withdrawn: formatUsdAmount(withdrawnTotal),
        owed: formatUsdAmount(owed),
        balances: credited - withdrawnTotal === owed,
      },
      unfundedOriginations: unfunded,
    };
  }

  /** The treasury's balance just before the deploy block; nothing when the stablecoin did not exist yet (the local chain deploys it). */
  async function balanceBefore(deployment: Deployment, fromBlock: bigint): Promise<bigint> {
    if (fromBlock === 0n) return 0n;
    const blockNumber = fromBlock - 1n;
    const code = await client.getCode({ address: deployment.contracts.stablecoin as Address, blockNumber });
    if (!code || code === "0x") return 0n;
    return client.readContract({ address: deployment.contracts.stablecoin as Address, abi: testDollarAbi, functionName: "balanceOf", args: [deployment.treasury as Address], blockNumber });
  }

  return { report };
}
export type ReconciliationService = ReturnType<typeof createReconciliationService>;
