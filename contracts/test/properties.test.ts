import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import fc from "fast-check";
import { getAddress, maxUint256, zeroAddress, type Address } from "viem";
import { defaultableAt, payoffWithFees, splitRepayment } from "#domain/lateFees";
import * as schedule from "#domain/schedule";
import { pastDue } from "#domain/servicing";
import { ROLES, SERVICING_PARAMS, deployLoanNoteFixture, type LoanNoteFixture } from "./fixtures";
import { DAY, propertySeed, seedHint } from "./helpers";

const RUNS = 200;
const ACTIONS = 50;
const SEED = propertySeed(4_242);

/** Random actions; their numbers pick targets among what exists when the action runs. */
const action = fc.oneof(
  fc.record({
    kind: fc.constant("originate" as const),
    id: fc.integer({ min: 1, max: 60 }),
    principal: fc.bigInt({ min: 1_000_000n, max: 5_000_000_000n }),
    rateBps: fc.integer({ min: 0, max: 3_000 }),
    termMonths: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ kind: fc.constant("list" as const), note: fc.nat(), price: fc.bigInt({ min: 1n, max: 3_000_000_000n }) }),
  fc.record({ kind: fc.constant("buy" as const), listing: fc.nat(), buyer: fc.nat() }),
  fc.record({ kind: fc.constant("transfer" as const), note: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant("deposit" as const), note: fc.nat(), way: fc.constantFrom("safeTransferFrom" as const, "transferFrom" as const, "deposit" as const) }),
  fc.record({ kind: fc.constant("withdraw" as const), note: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant("repay" as const), note: fc.nat(), payer: fc.nat(), mode: fc.integer({ min: 0, max: 2 }), amount: fc.bigInt({ min: 1n, max: 2_000_000_000n }) }),
  fc.record({ kind: fc.constant("withdrawCredits" as const), actor: fc.nat() }),
  fc.record({ kind: fc.constant("default" as const), note: fc.nat() }),
  fc.record({ kind: fc.constant("wait" as const), days: fc.integer({ min: 1, max: 70 }) }),
);

interface NoteModel {
  terms: schedule.LoanTerms;
  repaid: bigint;
  /** Every installment up to this one has had its late fee paid or never owed one. */
  feesPaidThrough: number;
  status: "active" | "repaid" | "defaulted";
  holder: Address;
  depositor?: Address;
  /** Every change a buyer prices: transfers, repayments, a default (the burn ends the note). */
  changes: number;
}

describe("properties of random sequences of actions", () => {
  let f: LoanNoteFixture;
  let actors: Address[];
  let reset: () => Promise<void>;

  before(async () => {
    f = await deployLoanNoteFixture();
    const users = f.wallets.slice(ROLES.firstUser, ROLES.firstUser + 4);
    for (const wallet of [...users, f.accounts.borrower]) {
      await f.dollar.write.mint([wallet.account.address, 10n ** 15n]);
      await f.dollar.write.approve([f.note.address, maxUint256], { account: wallet.account });
      await f.dollar.write.approve([f.marketplace.address, maxUint256], { account: wallet.account });
      await f.note.write.setApprovalForAll([f.marketplace.address, true], { account: wallet.account });
    }
    for (const wallet of [...users, f.accounts.treasury]) {
      await f.note.write.setApprovalForAll([f.vault.address, true], { account: wallet.account });
    }
    actors = [f.accounts.treasury.account.address, ...users.map((u) => u.account.address)].map((a) => getAddress(a));
    const snapshot = await f.networkHelpers.takeSnapshot();
    reset = () => snapshot.restore();
  });

  it(`keep the books balanced, listings honest, every vaulted note's depositor known and notes alive exactly while their loans are (${RUNS} runs × ${ACTIONS} actions)`, async () => {
    const accountOf = (address: Address) => f.wallets.find((w) => getAddress(w.account.address) === address)!.account;
    const stats = { filled: 0, staleRefused: 0, lateRefused: 0, lapsedByRepayment: 0, lapsedByDefault: 0, repaid: 0, burned: 0, defaulted: 0, plainTransferDeposits: 0 };

    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: ACTIONS, maxLength: ACTIONS }), async (actions) => {
        await reset();
        const notes = new Map<bigint, NoteModel>();
        // Every listing ever made (buyers may pick stale ones) and the one the marketplace holds per note, with the
        // note state it was made at.
        const history: { tokenId: bigint; price: bigint }[] = [];
        type Listing = { seller: Address; price: bigint; changes: number; repaid: bigint; status: NoteModel["status"] };
        const listings = new Map<bigint, Listing>();
        // Why a listing died without being replaced, for the stats: the walk must reach both lapses.
        const lapse = (tokenId: bigint, reason: "lapsedByRepayment" | "lapsedByDefault") => {
          const listing = listings.get(tokenId);
          if (listing && listing.changes === notes.get(tokenId)!.changes) stats[reason]++;
        };
        const credits = new Map<Address, bigint>();
        let paid = 0n;
        let credited = 0n;
        let withdrawn = 0n;
        const live = () => [...notes.entries()].filter(([, n]) => n.status !== "repaid");
        const pick = <T>(items: T[], i: number): T | undefined => (items.length ? items[i % items.length] : undefined);
        const nextTimestamp = async () => (await f.publicClient.getBlock()).timestamp + 1n;
        const move = (n: NoteModel, to: Address) => {
          n.holder = to;
          n.changes += 1;
        };

        for (const a of actions) {
          switch (a.kind) {
            case "originate": {
              const tokenId = BigInt(a.id);
              const terms = { principal: a.principal, rateBps: a.rateBps, termMonths: a.termMonths };
              const call = () =>
                f.note.write.originate([tokenId, f.accounts.borrower.account.address, a.principal, a.rateBps, a.termMonths], {
                  account: f.accounts.originator.account,
                });
              if (notes.has(tokenId)) {
                await f.viem.assertions.revertWithCustomError(call(), f.note, "LoanAlreadyExists");
                break;
              }
              const at = await nextTimestamp();
              await f.networkHelpers.time.setNextBlockTimestamp(at);
              await call();
              notes.set(tokenId, { terms: { ...terms, start: at }, repaid: 0n, feesPaidThrough: 0, status: "active", holder: actors[0], changes: 0 });
              break;
            }
            case "list": {
              const entry = pick(live(), a.note);
              if (!entry || entry[1].depositor) break;
              const [tokenId, n] = entry;
              await f.marketplace.write.list([tokenId, a.price], { account: accountOf(n.holder) });
              listings.set(tokenId, { seller: n.holder, price: a.price, changes: n.changes, repaid: n.repaid, status: n.status });
              history.push({ tokenId, price: a.price });
              break;
            }
            case "buy": {
              const wanted = pick(history, a.listing);
              if (!wanted) break;
              const n = notes.get(wanted.tokenId)!;
              const current = listings.get(wanted.tokenId);
              const buyer = actors[1 + (a.buyer % 4)];
              if (current && buyer === current.seller) break;
              const call = () => f.marketplace.write.buy([wanted.tokenId, wanted.price], { account: accountOf(buyer) });
              const isLive = current !== undefined && n.status !== "repaid" && n.holder === current.seller && n.changes === current.changes;
              assert.deepEqual(await f.marketplace.read.listingOf([wanted.tokenId]), isLive ? [current.seller, current.price] : [zeroAddress, 0n]);
              if (!isLive || current.price !== wanted.price) {
                await assert.rejects(call());
                stats.staleRefused++;
                break;
              }
              // A plain listing never sells a late note, whatever it was listed at: it is open again once cured.
              const at = await nextTimestamp();
              const { daysPastDue } = pastDue(n.terms, n.repaid, at);
              await f.networkHelpers.time.setNextBlockTimestamp(at);
              if (daysPastDue > 0) {
                await f.viem.assertions.revertWithCustomErrorWithArgs(call(), f.marketplace, "NoteLate", [wanted.tokenId, BigInt(daysPastDue)]);
                stats.lateRefused++;
                break;
              }
              await call();
              stats.filled++;
              // No listing fills at a note state other than the one it was made at.
              const loan = await f.note.read.loanOf([wanted.tokenId]);
              assert.equal(loan.repaid, current.repaid);
              assert.equal(loan.status, { active: 1, repaid: 2, defaulted: 3 }[current.status]);
              assert.equal(n.repaid, current.repaid);
              listings.delete(wanted.tokenId);
              move(n, buyer);
              break;
            }
            case "transfer": {
              const entry = pick(live(), a.note);
              if (!entry || entry[1].depositor) break;
              const [tokenId, n] = entry;
              const to = actors[a.to % actors.length];
              await f.note.write.transferFrom([n.holder, to, tokenId], { account: accountOf(n.holder) });
              move(n, to);
              break;
            }
            case "deposit": {
              const entry = pick(live(), a.note);
              if (!entry || entry[1].depositor) break;
              const [tokenId, n] = entry;
              const from = accountOf(n.holder);
              if (a.way === "safeTransferFrom") await f.note.write.safeTransferFrom([n.holder, f.vault.address, tokenId], { account: from });
              else if (a.way === "transferFrom") await f.note.write.transferFrom([n.holder, f.vault.address, tokenId], { account: from });
              else await f.vault.write.deposit([tokenId], { account: from });
              if (a.way === "transferFrom") stats.plainTransferDeposits++;
              n.depositor = n.holder;
              move(n, getAddress(f.vault.address));
              break;
            }
            case "withdraw": {
              const entry = pick(
                live().filter(([, n]) => n.depositor),
                a.note,
              );
              if (!entry) break;
              const [tokenId, n] = entry;
              const to = actors[a.to % actors.length];
              await f.vault.write.withdraw([tokenId, to], { account: accountOf(n.depositor!) });
              n.depositor = undefined;
              move(n, to);
              break;
            }
            case "repay": {
              const entry = pick(live(), a.note);
              if (!entry) break;
              const [tokenId, n] = entry;
              const payer = a.payer % 2 === 0 ? getAddress(f.accounts.borrower.account.address) : actors[1 + (a.payer % 4)];
              const at = await nextTimestamp();
              const owed = payoffWithFees(n, at, SERVICING_PARAMS);
              const amount = a.mode === 0 ? schedule.monthlyPayment(n.terms.principal, n.terms.rateBps, n.terms.termMonths) : a.mode === 1 ? a.amount : owed + a.amount;
              // Late fees first, whole ones; a payment below the first fee owed is refused and changes nothing.
              const split = splitRepayment(n, amount, at, SERVICING_PARAMS);
              await f.networkHelpers.time.setNextBlockTimestamp(at);
              if (!split) {
                await f.viem.assertions.revertWithCustomError(f.note.write.repay([tokenId, amount], { account: accountOf(payer) }), f.note, "PaymentBelowLateFee");
                break;
              }
              const expected = split.fees + split.installments;
              const beneficiary = n.depositor ?? n.holder;
              await f.note.write.repay([tokenId, amount], { account: accountOf(payer) });
              lapse(tokenId, "lapsedByRepayment");
              n.repaid += split.installments;
              n.feesPaidThrough = split.feesPaidThrough;
              n.changes += 1;
              paid += expected;
              credited += expected;
              credits.set(beneficiary, (credits.get(beneficiary) ?? 0n) + expected);
              stats.repaid++;
              if (expected === owed) {
                n.status = "repaid";
                stats.burned++;
              }
              break;
            }
            case "withdrawCredits": {
              const actor = [...credits.keys()][a.actor % Math.max(credits.size, 1)];
              if (!actor || !credits.get(actor)) break;
              await f.note.write.withdrawCredits({ account: accountOf(actor) });
              withdrawn += credits.get(actor)!;
              credits.set(actor, 0n);
              break;
            }
            case "default": {
              const entry = pick(live(), a.note);
              if (!entry) break;
              const [tokenId, n] = entry;
              const at = await nextTimestamp();
              const call = () => f.note.write.markDefaulted([tokenId], { account: f.accounts.originator.account });
              if (n.status === "active" && at >= defaultableAt(n, SERVICING_PARAMS)) {
                await f.networkHelpers.time.setNextBlockTimestamp(at);
                await call();
                lapse(tokenId, "lapsedByDefault");
                n.status = "defaulted";
                n.changes += 1;
                stats.defaulted++;
              } else {
                await assert.rejects(call());
              }
              break;
            }
            case "wait":
              await f.networkHelpers.time.increase(BigInt(a.days) * DAY);
              break;
          }

          // Each contract holds exactly what it owes: the note contract the credits not yet withdrawn, the others nothing.
          const owedByNote = [...credits.values()].reduce((s, v) => s + v, 0n);
          assert.equal(await f.dollar.read.balanceOf([f.note.address]), owedByNote);
          assert.equal(credited, paid);
          assert.equal(paid - withdrawn, owedByNote);
        }

        // Credited payments equal paid payments, per account and per loan.
        for (const [account, amount] of credits) assert.equal(await f.note.read.creditsOf([account]), amount, account);
        assert.equal(await f.dollar.read.balanceOf([f.marketplace.address]), 0n);
        assert.equal(await f.dollar.read.balanceOf([f.vault.address]), 0n);
        // Nothing is ever credited to the zero address, and every note in the vault has its depositor recorded.
        assert.equal(await f.note.read.creditsOf([zeroAddress]), 0n);
        // Live notes are exactly the originated, unburned ones, held where the model says.
        let liveCount = 0n;
        for (const [tokenId, n] of notes) {
          const [owner] = await f.note.read.ownershipOf([tokenId]);
          const loan = await f.note.read.loanOf([tokenId]);
          assert.equal(loan.repaid, n.repaid);
          assert.equal(loan.status, { active: 1, repaid: 2, defaulted: 3 }[n.status]);
          assert.equal(owner, n.status === "repaid" ? zeroAddress : n.holder);
          if (owner === getAddress(f.vault.address)) {
            assert.ok(n.depositor);
            assert.equal(await f.vault.read.depositorOf([tokenId]), n.depositor);
          }
          if (n.status !== "repaid") liveCount++;
        }
        let held = await f.note.read.balanceOf([f.vault.address]);
        for (const actor of actors) held += await f.note.read.balanceOf([actor]);
        assert.equal(held, liveCount);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The random walk must reach the interesting places, or the properties prove little.
    for (const [name, count] of Object.entries(stats)) assert.ok(count > 0, `${name} never happened ${seedHint(SEED)}`);
  });
});
