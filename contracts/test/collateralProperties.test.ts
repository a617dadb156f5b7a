import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import fc from "fast-check";
import { getAddress, maxUint256, type Address } from "viem";
import { ROLES } from "./fixtures";
import { deployCollateralFixture, type CollateralFixture } from "./collateralFixture";
import { DAY, propertySeed, seedHint } from "./helpers";

const RUNS = 100;
const ACTIONS = 40;
const PIECES = 6n;
const SEED = propertySeed(1_717);

/** Random actions; their numbers pick targets among what exists when the action runs. */
const action = fc.oneof(
  fc.record({ kind: fc.constant("originate" as const), piece: fc.integer({ min: 1, max: Number(PIECES) }), termMonths: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant("repay" as const), note: fc.nat(), full: fc.boolean() }),
  fc.record({ kind: fc.constant("default" as const), note: fc.nat() }),
  fc.record({ kind: fc.constant("claim" as const), note: fc.nat(), actor: fc.nat(), rightful: fc.boolean(), anyLoan: fc.boolean() }),
  fc.record({ kind: fc.constant("transfer" as const), note: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant("deposit" as const), note: fc.nat() }),
  fc.record({ kind: fc.constant("withdraw" as const), note: fc.nat() }),
  fc.record({ kind: fc.constant("wait" as const), days: fc.integer({ min: 1, max: 150 }) }),
);

interface Loan {
  piece: bigint;
  state: "active" | "defaulted" | "repaid" | "claimed";
  holder: Address;
  depositor?: Address;
  /** When a default can be recorded: maturity plus the grace period. */
  defaultableAt: bigint;
}

describe("properties of NFT collateral under random sequences of actions", () => {
  let f: CollateralFixture;
  let actors: Address[];
  let reset: () => Promise<void>;

  before(async () => {
    f = await deployCollateralFixture();
    for (let i = 4n; i <= PIECES; i++) await f.art.write.mint([f.accounts.borrower.account.address]);
    const users = f.wallets.slice(ROLES.firstUser, ROLES.firstUser + 3);
    for (const wallet of [...users, f.accounts.treasury]) {
      await f.note.write.setApprovalForAll([f.vault.address, true], { account: wallet.account });
    }
    await f.dollar.write.approve([f.note.address, maxUint256], { account: f.accounts.borrower.account });
    actors = [f.accounts.treasury.account.address, ...users.map((u) => u.account.address)].map((a) => getAddress(a));
    const snapshot = await f.networkHelpers.takeSnapshot();
    reset = () => snapshot.restore();
  });

  it(`keep every pledged piece in escrow for exactly one open loan, with its borrower after repayment, or with the claimant (${RUNS} runs × ${ACTIONS} actions)`, async () => {
    const accountOf = (address: Address) => f.wallets.find((w) => getAddress(w.account.address) === address)!.account;
    const borrower = getAddress(f.accounts.borrower.account.address);
    const escrow = getAddress(f.escrow.address);
    const stats = { defaulted: 0, originated: 0, returned: 0, claimed: 0, refusedClaims: 0, vaultClaims: 0 };

    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: ACTIONS, maxLength: ACTIONS }), async (actions) => {
        await reset();
        const loans = new Map<bigint, Loan>();
        /** Where each piece must be: the escrow, the borrower, or whoever received it at a claim. */
        const ownerOfPiece = new Map<bigint, Address>(Array.from({ length: Number(PIECES) }, (_, i) => [BigInt(i + 1), borrower]));
        let nextId = 1n;
        const pick = (n: number, states: Loan["state"][]) => {
          const open = [...loans.entries()].filter(([, l]) => states.includes(l.state));
          return open.length ? open[n % open.length] : undefined;
        };
        for (const a of actions) {
          if (a.kind === "originate") {
            const piece = BigInt(a.piece);
            const call = f.note.write.originateWithCollateral([nextId, borrower, 1_000_000_000n, 1200, a.termMonths, f.art.address, piece], { account: f.accounts.originator.account });
            if (ownerOfPiece.get(piece) !== borrower) {
              await assert.rejects(call);
              continue;
            }
            await call;
            const start = (await f.publicClient.getBlock()).timestamp;
            const defaultableAt = start + BigInt(a.termMonths) * 30n * DAY + (await f.note.read.gracePeriod());
            loans.set(nextId++, { piece, state: "active", holder: getAddress(f.accounts.treasury.account.address), defaultableAt });
            ownerOfPiece.set(piece, escrow);
            stats.originated++;
          } else if (a.kind === "repay") {
            const found = pick(a.note, ["active", "defaulted"]);
            if (!found) continue;
            const [id, loan] = found;
            const payoff = await f.note.read.payoffAmount([id]);
            const amount = a.full ? payoff : (payoff + 1n) / 2n;
            await f.note.write.repay([id, amount], { account: f.accounts.borrower.account });
            if (amount === payoff) {
              loan.state = "repaid";
              ownerOfPiece.set(loan.piece, borrower);
              stats.returned++;
            }
          } else if (a.kind === "default") {
            const now = (await f.publicClient.getBlock()).timestamp + 1n;
            const due = [...loans.entries()].filter(([, l]) => l.state === "active" && l.defaultableAt <= now);
            if (!due.length) continue;
            const [id, loan] = due[a.note % due.length];
            await f.note.write.markDefaulted([id], { account: f.accounts.originator.account });
            loan.state = "defaulted";
            stats.defaulted++;
          } else if (a.kind === "claim") {
            // Half the claims target a defaulted loan, half any loan; half are by the rightful claimant.
            const found = pick(a.note, a.anyLoan ? ["active", "defaulted", "repaid", "claimed"] : ["defaulted"]);
            if (!found) continue;
            const [id, loan] = found;
            const actor = a.rightful && loan.state === "defaulted" ? (loan.depositor ?? loan.holder) : [...actors, borrower][a.actor % (actors.length + 1)];
            const entitled = loan.state === "defaulted" && actor === (loan.depositor ?? loan.holder);
            const call = f.escrow.write.claimCollateral([id, actor], { account: accountOf(actor) });
            if (!entitled) {
              await assert.rejects(call);
              stats.refusedClaims++;
              continue;
            }
            await call;
            if (loan.depositor) stats.vaultClaims++;
            loan.state = "claimed";
            ownerOfPiece.set(loan.piece, actor);
            stats.claimed++;
          } else if (a.kind === "transfer") {
            const found = pick(a.note, ["active", "defaulted"]);
            if (!found || found[1].depositor) continue;
            const [id, loan] = found;
            const to = actors[a.to % actors.length];
            await f.note.write.transferFrom([loan.holder, to, id], { account: accountOf(loan.holder) });
            loan.holder = to;
          } else if (a.kind === "deposit") {
            const found = pick(a.note, ["active", "defaulted"]);
            if (!found || found[1].depositor) continue;
            const [id, loan] = found;
            await f.vault.write.deposit([id], { account: accountOf(loan.holder) });
            loan.depositor = loan.holder;
            loan.holder = getAddress(f.vault.address);
          } else if (a.kind === "withdraw") {
            const found = pick(a.note, ["active", "defaulted"]);
            if (!found || !found[1].depositor) continue;
            const [id, loan] = found;
            await f.vault.write.withdraw([id, loan.depositor!], { account: accountOf(loan.depositor!) });
            loan.holder = loan.depositor!;
            loan.depositor = undefined;
          } else {
            await f.networkHelpers.time.increase(a.days * 86_400);
          }

          // The invariant, after every action: each piece is where the model says, and a piece in escrow secures
          // exactly one open (active or defaulted, unclaimed) loan, whose record names it.
          for (const [piece, owner] of ownerOfPiece) assert.equal(await f.art.read.ownerOf([piece]), owner);
          for (const [id, loan] of loans) {
            const [collection, collateralId, pledger] = await f.escrow.read.collateralOf([id]);
            const open = loan.state === "active" || loan.state === "defaulted";
            assert.equal(collection === getAddress(f.art.address) && collateralId === loan.piece && pledger === borrower, open);
          }
          const escrowed = [...ownerOfPiece].filter(([, owner]) => owner === escrow).map(([piece]) => piece);
          const openPieces = [...loans.values()].filter((l) => l.state === "active" || l.state === "defaulted").map((l) => l.piece);
          assert.deepEqual([...escrowed].sort(), [...openPieces].sort());
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The walk reached every path.
    for (const [name, count] of Object.entries(stats)) assert.ok(count > 0, `no ${name} in ${RUNS} runs ${seedHint(SEED)}`);
  });
});
