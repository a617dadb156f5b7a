import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import fc from "fast-check";
import { getAddress, maxUint256, parseEventLogs, type Address } from "viem";
import { DEFAULT_TERMS, ROLES } from "./fixtures";
import { deployCollateralFixture, type CollateralFixture } from "./collateralFixture";
import { monthlyPayment } from "#domain/schedule";
import { signListing } from "./orders";
import { DAY, propertySeed, seedHint } from "./helpers";
import { acceptance, signMatchingRefinanceOffer, signRefinanceOffer } from "./refinanceOrders";

const RUNS = 60;
const ACTIONS = 40;
const PIECES = 4n;
const SEED = propertySeed(3_303);
const P = DEFAULT_TERMS.principal;

const action = fc.oneof(
  fc.record({ kind: fc.constant("originate" as const), piece: fc.integer({ min: 0, max: Number(PIECES) }), termMonths: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant("repay" as const), note: fc.nat(), full: fc.boolean() }),
  fc.record({
    kind: fc.constant("refinance" as const),
    note: fc.nat(),
    lender: fc.nat(),
    matching: fc.boolean(),
    rateCut: fc.integer({ min: 0, max: 400 }),
    termMonths: fc.integer({ min: 1, max: 6 }),
    principalPct: fc.integer({ min: 50, max: 150 }),
  }),
  fc.record({ kind: fc.constant("sell" as const), note: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant("default" as const), note: fc.nat() }),
  fc.record({ kind: fc.constant("claim" as const), note: fc.nat() }),
  fc.record({ kind: fc.constant("withdraw" as const), actor: fc.nat() }),
  fc.record({ kind: fc.constant("wait" as const), days: fc.integer({ min: 1, max: 100 }) }),
);

interface Loan {
  piece: bigint | null;
  state: "active" | "defaulted" | "repaid" | "claimed";
  holder: Address;
}

/**
 * Random repayments, refinancings (one-loan and matching offers, cash out and shortfall), sales by signed listings at
 * par, defaults and claims: no unit of the stablecoin appears or vanishes, the note contract holds exactly the credits
 * it owes, every refinance credits the old holder exactly the payoff, and every pledged piece is in escrow for exactly
 * one open loan or back with its owner.
 */
describe("properties of refinancing under random sequences of actions", () => {
  let f: CollateralFixture;
  let actors: Address[];
  let reset: () => Promise<void>;

  before(async () => {
    f = await deployCollateralFixture();
    for (let i = 4n; i <= PIECES; i++) await f.art.write.mint([f.accounts.borrower.account.address]);
    const users = f.wallets.slice(ROLES.firstUser, ROLES.firstUser + 3);
    for (const wallet of [...users, f.accounts.treasury]) {
      await f.dollar.write.mint([wallet.account.address, 1_000n * P]);
      await f.dollar.write.approve([f.marketplace.address, maxUint256], { account: wallet.account });
      await f.note.write.setApprovalForAll([f.marketplace.address, true], { account: wallet.account });
    }
    await f.dollar.write.approve([f.marketplace.address, maxUint256], { account: f.accounts.borrower.account });
    actors = [f.accounts.treasury.account.address, ...users.map((u) => u.account.address)].map((a) => getAddress(a));
    const snapshot = await f.networkHelpers.takeSnapshot();
    reset = () => snapshot.restore();
  });

  it(`account for every unit and every pledged piece (${RUNS} runs × ${ACTIONS} actions)`, async () => {
    const walletOf = (address: Address) => f.wallets.find((w) => getAddress(w.account.address) === address)!;
    const borrower = getAddress(f.accounts.borrower.account.address);
    const escrow = getAddress(f.escrow.address);
    const everyone = () => [...actors, borrower, getAddress(f.note.address), getAddress(f.marketplace.address), getAddress(f.accounts.feeRecipient.account.address)];
    const totalHeld = async () => (await Promise.all(everyone().map((a) => f.dollar.read.balanceOf([a])))).reduce((x, y) => x + y, 0n);
    const stats = { refinanced: 0, matching: 0, cashOut: 0, shortfall: 0, secured: 0, refused: 0, sold: 0, defaulted: 0, claimed: 0, repaid: 0 };

    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: ACTIONS, maxLength: ACTIONS }), async (actions) => {
        await reset();
        const total = await totalHeld();
        const loans = new Map<bigint, Loan>();
        const ownerOfPiece = new Map<bigint, Address>(Array.from({ length: Number(PIECES) }, (_, i) => [BigInt(i + 1), borrower]));
        let nextId = 1n;
        const pick = (n: number, states: Loan["state"][]) => {
          const open = [...loans.entries()].filter(([, l]) => states.includes(l.state));
          return open.length ? open[n % open.length] : undefined;
        };

        for (const a of actions) {
          if (a.kind === "originate") {
            const piece = a.piece === 0 ? null : BigInt(a.piece);
            if (piece !== null && ownerOfPiece.get(piece) !== borrower) continue;
            const by = { account: f.accounts.originator.account };
            const args = [nextId, borrower, P, 1200, a.termMonths] as const;
            if (piece === null) await f.note.write.originate([...args], by);
            else await f.note.write.originateWithCollateral([...args, f.art.address, piece], by);
            loans.set(nextId++, { piece, state: "active", holder: actors[0] });
            if (piece !== null) ownerOfPiece.set(piece, escrow);
          } else if (a.kind === "repay") {
            const found = pick(a.note, ["active", "defaulted"]);
            if (!found) continue;
            const [id, loan] = found;
            const payoff = await f.note.read.payoffAmount([id]);
            const amount = a.full ? payoff : (payoff + 1n) / 2n;
            await f.note.write.repay([id, amount], { account: f.accounts.borrower.account });
            if (amount === payoff) {
              loan.state = "repaid";
              if (loan.piece !== null) ownerOfPiece.set(loan.piece, borrower);
              stats.repaid++;
            }
          } else if (a.kind === "refinance") {
            const found = pick(a.note, ["active", "defaulted"]);
            if (!found) continue;
            const [id, loan] = found;
            const lender = walletOf(actors[a.lender % actors.length]);
            const state = await f.note.read.noteStateOf([id]);
            const rateBps = BigInt(Math.max(0, Number(state.rateBps) - a.rateCut));
            const fields = { rateBps, termMonths: BigInt(a.termMonths), maxPrincipal: 3n * P, maxDaysPastDue: 10_000n };
            const signed = a.matching ? await signMatchingRefinanceOffer(f, lender, fields) : await signRefinanceOffer(f, lender, { ...fields, tokenId: id });
            const principal = (P * BigInt(a.principalPct)) / 100n;
            const chosen = acceptance(principal, { allowShorterTerm: true });
            const call = a.matching
              ? f.marketplace.write.acceptMatchingRefinanceOffer([signed.order as never, signed.signature, id, chosen], { account: f.accounts.borrower.account })
              : f.marketplace.write.acceptRefinanceOffer([signed.order as never, signed.signature, chosen], { account: f.accounts.borrower.account });
            // Refused: a defaulted loan, or terms that lower neither the rate by the minimum nor the payment.
            const better = rateBps + 50n <= state.rateBps || (await isCheaper(id, principal, rateBps, BigInt(a.termMonths)));
            if (loan.state === "defaulted" || !better) {
              await assert.rejects(call);
              stats.refused++;
              continue;
            }
            const creditBefore = await f.note.read.creditsOf([loan.holder]);
            const receipt = await f.publicClient.waitForTransactionReceipt({ hash: await call });
            const [event] = parseEventLogs({ abi: f.note.abi, logs: receipt.logs, eventName: "LoanRefinanced" });
            assert.equal(await f.note.read.creditsOf([loan.holder]), creditBefore + event.args.payoff, "the old holder is credited exactly the payoff");
            loan.state = "repaid";
            loans.set(event.args.newTokenId, { piece: loan.piece, state: "active", holder: getAddress(lender.account.address) });
            stats.refinanced++;
            if (a.matching) stats.matching++;
            if (principal >= event.args.payoff) stats.cashOut++;
            else stats.shortfall++;
            if (loan.piece !== null) stats.secured++;
          } else if (a.kind === "sell") {
            const found = pick(a.note, ["active"]);
            if (!found) continue;
            const [id, loan] = found;
            const to = actors[a.to % actors.length];
            if (to === loan.holder) continue;
            const { order, signature } = await signListing(f, walletOf(loan.holder), { tokenId: id, parBps: 10_000n, maxDaysPastDue: 10_000n });
            await f.marketplace.write.fillListing([order, signature, maxUint256], { account: walletOf(to).account });
            loan.holder = to;
            stats.sold++;
          } else if (a.kind === "default") {
            const found = pick(a.note, ["active"]);
            if (!found) continue;
            const [id, loan] = found;
            const l = await f.note.read.loanOf([id]);
            const availableAt = BigInt(l.start) + BigInt(l.termMonths) * 30n * DAY + (await f.note.read.gracePeriod());
            if ((await f.publicClient.getBlock()).timestamp + 1n < availableAt) continue;
            await f.note.write.markDefaulted([id], { account: f.accounts.originator.account });
            loan.state = "defaulted";
            stats.defaulted++;
          } else if (a.kind === "claim") {
            const found = pick(a.note, ["defaulted"]);
            if (!found || found[1].piece === null) continue;
            const [id, loan] = found;
            await f.escrow.write.claimCollateral([id, loan.holder], { account: walletOf(loan.holder).account });
            loan.state = "claimed";
            ownerOfPiece.set(loan.piece!, loan.holder);
            stats.claimed++;
          } else if (a.kind === "withdraw") {
            const actor = actors[a.actor % actors.length];
            if ((await f.note.read.creditsOf([actor])) > 0n) await f.note.write.withdrawCredits({ account: walletOf(actor).account });
          } else {
            await f.networkHelpers.time.increase(a.days * 86_400);
          }

          // Every unit accounted for: nothing minted or burned, and the note contract holds exactly what it owes.
          assert.equal(await totalHeld(), total);
          const owed = (await Promise.all([...actors, borrower].map((a) => f.note.read.creditsOf([a])))).reduce((x, y) => x + y, 0n);
          assert.equal(await f.dollar.read.balanceOf([f.note.address]), owed);
          // Every pledged piece: in escrow for exactly one open loan, whose record names it, or back with its owner.
          for (const [piece, owner] of ownerOfPiece) assert.equal(await f.art.read.ownerOf([piece]), owner);
          for (const [id, loan] of loans) {
            if (loan.piece === null) continue;
            const [, collateralId, pledger] = await f.escrow.read.collateralOf([id]);
            const open = loan.state === "active" || loan.state === "defaulted";
            assert.equal(collateralId === loan.piece && pledger === borrower, open, `note ${id}'s pledge`);
          }
          const escrowed = [...ownerOfPiece].filter(([, owner]) => owner === escrow).map(([piece]) => piece);
          const openPieces = [...loans.values()].filter((l) => l.piece !== null && (l.state === "active" || l.state === "defaulted")).map((l) => l.piece!);
          assert.deepEqual([...escrowed].sort(), [...openPieces].sort());
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    for (const [name, count] of Object.entries(stats)) assert.ok(count > 0, `no ${name} in ${RUNS} runs ${seedHint(SEED)}`);
  });

  /** Whether the new terms lower the monthly payment, by the domain's schedule (which mirrors the contract's). */
  async function isCheaper(id: bigint, principal: bigint, rateBps: bigint, termMonths: bigint): Promise<boolean> {
    return monthlyPayment(principal, rateBps, termMonths) < (await f.note.read.monthlyPayment([id]));
  }
});
