import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import { getAddress, toEventSelector, zeroAddress } from "viem";
import { amountDueWithFees, lateFeesOwed, payoffWithFees, splitRepayment } from "#domain/lateFees";
import * as schedule from "#domain/schedule";
import { DEFAULTS } from "../params";
import { DEFAULT_TERMS, ROLES, SERVICING_PARAMS, deployLoanNoteFixture, type LoanNoteFixture } from "./fixtures";
import { DAY, fund, now, signPermit } from "./helpers";

describe("LoanNote", () => {
  let f: LoanNoteFixture;
  let restore: () => Promise<void>;
  const P = DEFAULT_TERMS.principal;

  before(async () => {
    f = await deployLoanNoteFixture();
    const snapshot = await f.networkHelpers.takeSnapshot();
    restore = () => snapshot.restore();
  });
  beforeEach(async () => restore());

  const user = (i: number) => f.wallets[ROLES.firstUser + i];
  const originate = (tokenId: bigint, terms: Partial<{ principal: bigint; rateBps: number; termMonths: number }> = {}) =>
    f.note.write.originate([tokenId, f.accounts.borrower.account.address, terms.principal ?? P, terms.rateBps ?? DEFAULT_TERMS.rateBps, terms.termMonths ?? DEFAULT_TERMS.termMonths], {
      account: f.accounts.originator.account,
    });
  const termsOf = async (tokenId: bigint): Promise<schedule.LoanTerms> => {
    const loan = await f.note.read.loanOf([tokenId]);
    return { principal: loan.principal, rateBps: loan.rateBps, termMonths: loan.termMonths, start: BigInt(loan.start) };
  };

  describe("originate", () => {
    it("moves the principal from the treasury to the borrower and mints the note to the treasury", async () => {
      const { treasury, borrower } = f.accounts;
      const before = await f.dollar.read.balanceOf([treasury.account.address]);
      const hash = await originate(42n);
      const start = await now(f);
      await f.viem.assertions.emitWithArgs(hash, f.note, "LoanOriginated", [42n, getAddress(borrower.account.address), P, 1200n, 12n, start]);
      assert.equal(await f.dollar.read.balanceOf([treasury.account.address]), before - P);
      assert.equal(await f.dollar.read.balanceOf([borrower.account.address]), P);
      assert.equal(await f.note.read.ownerOf([42n]), getAddress(treasury.account.address));
      const loan = await f.note.read.loanOf([42n]);
      assert.deepEqual([loan.principal, loan.repaid, BigInt(loan.start), loan.rateBps, loan.termMonths, loan.status], [P, 0n, start, 1200, 12, 1]);
    });

    it("accepts any unused id in any order", async () => {
      await originate(900n);
      await originate(7n);
      assert.equal(await f.note.read.balanceOf([f.accounts.treasury.account.address]), 2n);
    });

    it("refuses a second origination of the same id, also after the note was repaid and burned", async () => {
      await originate(1n);
      await f.viem.assertions.revertWithCustomErrorWithArgs(originate(1n), f.note, "LoanAlreadyExists", [1n]);
      const { borrower } = f.accounts;
      await f.dollar.write.approve([f.note.address, 2n * P], { account: borrower.account });
      await f.dollar.write.mint([borrower.account.address, P]);
      await f.note.write.repay([1n, 2n * P], { account: borrower.account });
      await f.viem.assertions.revertWithCustomErrorWithArgs(originate(1n), f.note, "LoanAlreadyExists", [1n]);
    });

    it("is reserved to the originator role", async () => {
      await f.viem.assertions.revertWithCustomError(f.note.write.originate([1n, user(0).account.address, P, 100, 12], { account: user(0).account }), f.note, "AccessControlUnauthorizedAccount");
    });

    it("refuses a zero borrower", async () => {
      await f.viem.assertions.revertWithCustomError(f.note.write.originate([1n, zeroAddress, P, 100, 12], { account: f.accounts.originator.account }), f.note, "ZeroAddress");
    });

    for (const [label, terms] of [
      ["a principal under one dollar", { principal: 999_999n }],
      ["a principal above the packed bound", { principal: 2n ** 56n }],
      ["a rate above 100%", { rateBps: 10_001 }],
      ["a zero term", { termMonths: 0 }],
      ["a term above 360 months", { termMonths: 361 }],
      ["terms whose first installment would repay no principal", { principal: 1_000_000n, rateBps: 10_000, termMonths: 360 }],
    ] as const) {
      it(`refuses ${label}`, async () => {
        await f.viem.assertions.revertWithCustomError(originate(5n, terms), f.note, "InvalidTerms");
      });
    }

    it("stops while paused and resumes when unpaused", async () => {
      await f.note.write.pause();
      await f.viem.assertions.revertWithCustomError(originate(1n), f.note, "EnforcedPause");
      await f.note.write.unpause();
      await originate(1n);
      assert.equal(await f.note.read.ownerOf([1n]), getAddress(f.accounts.treasury.account.address));
    });

    it("lets only the pauser pause and unpause", async () => {
      await f.viem.assertions.revertWithCustomError(f.note.write.pause({ account: user(0).account }), f.note, "AccessControlUnauthorizedAccount");
      await f.viem.assertions.revertWithCustomError(f.note.write.unpause({ account: user(0).account }), f.note, "AccessControlUnauthorizedAccount");
    });
  });

  describe("repay", () => {
    beforeEach(async () => {
      await originate(1n);
      await fund(f, f.accounts.borrower, 10n * P, f.note.address);
    });

    it("credits an installment to the holder, emits Repaid and MetadataUpdate, and takes the stablecoin", async () => {
      const holder = user(0);
      await f.note.write.transferFrom([f.accounts.treasury.account.address, holder.account.address, 1n], {
        account: f.accounts.treasury.account,
      });
      const payment = await f.note.read.monthlyPayment([1n]);
      const hash = await f.note.write.repay([1n, payment], { account: f.accounts.borrower.account });
      await f.viem.assertions.emitWithArgs(hash, f.note, "Repaid", [1n, getAddress(f.accounts.borrower.account.address), getAddress(holder.account.address), payment, payment]);
      await f.viem.assertions.emitWithArgs(hash, f.note, "MetadataUpdate", [1n]);
      assert.equal(await f.note.read.creditsOf([holder.account.address]), payment);
      assert.equal(await f.dollar.read.balanceOf([f.note.address]), payment);
      assert.equal((await f.note.read.loanOf([1n])).repaid, payment);
    });

    it("caps a payment above the payoff, marks the loan repaid and burns the note without a MetadataUpdate", async () => {
      const payoff = await f.note.read.payoffAmount([1n]);
      const before = await f.dollar.read.balanceOf([f.accounts.borrower.account.address]);
      const hash = await f.note.write.repay([1n, 5n * P], { account: f.accounts.borrower.account });
      await f.viem.assertions.emitWithArgs(hash, f.note, "LoanRepaid", [1n]);
      // A burned note has no metadata to refresh: the final payment emits no MetadataUpdate.
      const receipt = await f.publicClient.getTransactionReceipt({ hash });
      const metadataUpdate = toEventSelector("MetadataUpdate(uint256)");
      assert.equal(receipt.logs.filter((log) => log.topics[0] === metadataUpdate).length, 0);
      assert.equal(await f.dollar.read.balanceOf([f.accounts.borrower.account.address]), before - payoff);
      assert.equal(await f.note.read.creditsOf([f.accounts.treasury.account.address]), payoff);
      await f.viem.assertions.revertWithCustomError(f.note.read.ownerOf([1n]), f.note, "ERC721NonexistentToken");
      const loan = await f.note.read.loanOf([1n]);
      assert.equal(loan.status, 2);
      assert.equal(loan.repaid, payoff);
      for (const view of ["nextDueDate", "amountDueNow", "outstandingBalance", "payoffAmount"] as const) {
        assert.equal(await f.note.read[view]([1n]), 0n, view);
      }
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.write.repay([1n, 1n], { account: f.accounts.borrower.account }), f.note, "LoanNotActive", [1n]);
    });

    it("charges no penalty: an early payoff is principal plus interest accrued in the current period", async () => {
      // Past the first due date, yet before its late fee: nothing but principal and interest is owed.
      await f.networkHelpers.time.increase(40n * DAY);
      const terms = await termsOf(1n);
      const at = await now(f);
      const payoff = await f.note.read.payoffAmount([1n]);
      assert.equal(payoff, schedule.payoffAmount(terms, 0n, at));
      assert.ok(payoff < schedule.totalDue(terms));
    });

    it("repays every installment on its due date and burns the note with the last", async () => {
      const terms = await termsOf(1n);
      const rows = schedule.scheduleRows(terms);
      for (const row of rows) {
        await f.networkHelpers.time.increaseTo(row.dueDate - 1n);
        await f.note.write.repay([1n, row.payment], { account: f.accounts.borrower.account });
      }
      const loan = await f.note.read.loanOf([1n]);
      assert.equal(loan.status, 2);
      assert.equal(loan.repaid, schedule.totalDue(terms));
      assert.equal(await f.note.read.creditsOf([f.accounts.treasury.account.address]), schedule.totalDue(terms));
    });

    it("takes a permit and the payment in one transaction, and still works when the permit was used already", async () => {
      const { borrower } = f.accounts;
      await f.dollar.write.approve([f.note.address, 0n], { account: borrower.account });
      const payment = await f.note.read.monthlyPayment([1n]);
      const deadline = (await now(f)) + 3600n;
      const sig = await signPermit(f, borrower, f.note.address, payment, deadline);
      await f.note.write.repayWithPermit([1n, payment, deadline, sig.v, sig.r, sig.s], { account: borrower.account });
      assert.equal((await f.note.read.loanOf([1n])).repaid, payment);

      const again = await signPermit(f, borrower, f.note.address, payment, deadline);
      await f.dollar.write.permit([borrower.account.address, f.note.address, payment, deadline, again.v, again.r, again.s]);
      await f.note.write.repayWithPermit([1n, payment, deadline, again.v, again.r, again.s], { account: borrower.account });
      assert.equal((await f.note.read.loanOf([1n])).repaid, 2n * payment);
    });

    it("refuses a zero amount and an unknown loan", async () => {
      await f.viem.assertions.revertWithCustomError(f.note.write.repay([1n, 0n], { account: f.accounts.borrower.account }), f.note, "ZeroAmount");
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.write.repay([77n, 1n], { account: f.accounts.borrower.account }), f.note, "LoanNotFound", [77n]);
    });

    it("credits the depositor while the vault holds the note", async () => {
      const investor = user(1);
      await f.note.write.safeTransferFrom([f.accounts.treasury.account.address, investor.account.address, 1n], {
        account: f.accounts.treasury.account,
      });
      await f.note.write.safeTransferFrom([investor.account.address, f.vault.address, 1n], { account: investor.account });
      await f.note.write.repay([1n, 1_000_000n], { account: f.accounts.borrower.account });
      assert.equal(await f.note.read.creditsOf([investor.account.address]), 1_000_000n);
      assert.equal(await f.note.read.creditsOf([f.vault.address]), 0n);
    });
  });

  describe("withdrawCredits", () => {
    it("pays out the caller's credits once and emits CreditsWithdrawn", async () => {
      await originate(1n);
      await fund(f, f.accounts.borrower, P, f.note.address);
      await f.note.write.repay([1n, 5_000_000n], { account: f.accounts.borrower.account });
      const { treasury } = f.accounts;
      const before = await f.dollar.read.balanceOf([treasury.account.address]);
      const hash = await f.note.write.withdrawCredits({ account: treasury.account });
      await f.viem.assertions.emitWithArgs(hash, f.note, "CreditsWithdrawn", [getAddress(treasury.account.address), 5_000_000n]);
      assert.equal(await f.dollar.read.balanceOf([treasury.account.address]), before + 5_000_000n);
      assert.equal(await f.note.read.creditsOf([treasury.account.address]), 0n);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.write.withdrawCredits({ account: treasury.account }), f.note, "NothingToWithdraw", [getAddress(treasury.account.address)]);
    });
  });

  describe("markDefaulted", () => {
    beforeEach(async () => originate(1n));

    it("refuses one second before maturity plus the grace period, naming the moment, and succeeds exactly at it", async () => {
      const terms = await termsOf(1n);
      // Every installment but the last paid on time: the last falls due at maturity, so the grace period after it
      // ends before that installment is as many days past due as a default by days needs.
      await fund(f, f.accounts.borrower, P, f.note.address);
      for (const row of schedule.scheduleRows(terms).slice(0, -1)) {
        await f.networkHelpers.time.increaseTo(row.dueDate - 1n);
        await f.note.write.repay([1n, row.payment], { account: f.accounts.borrower.account });
      }
      const availableAt = schedule.maturityDefaultAt(terms, DEFAULTS.gracePeriodSeconds);
      assert.equal(await f.note.read.defaultableAt([1n]), availableAt);
      await f.networkHelpers.time.setNextBlockTimestamp(availableAt - 1n);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.write.markDefaulted([1n], { account: f.accounts.originator.account }), f.note, "DefaultTooEarly", [1n, availableAt]);
      // The refused transaction mined no block: pin the next one to the exact moment.
      await f.networkHelpers.time.setNextBlockTimestamp(availableAt);
      const hash = await f.note.write.markDefaulted([1n], { account: f.accounts.originator.account });
      const receipt = await f.publicClient.getTransactionReceipt({ hash });
      assert.equal((await f.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp, availableAt);
      assert.equal((await f.note.read.loanOf([1n])).status, 3);
    });

    it("marks an unpaid loan defaulted after the grace period, once, and a later payoff still repays it", async () => {
      const terms = await termsOf(1n);
      await f.networkHelpers.time.increaseTo(schedule.maturityDefaultAt(terms, DEFAULTS.gracePeriodSeconds));
      const hash = await f.note.write.markDefaulted([1n], { account: f.accounts.originator.account });
      await f.viem.assertions.emitWithArgs(hash, f.note, "LoanDefaulted", [1n]);
      await f.viem.assertions.emitWithArgs(hash, f.note, "MetadataUpdate", [1n]);
      assert.equal((await f.note.read.loanOf([1n])).status, 3);
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.write.markDefaulted([1n], { account: f.accounts.originator.account }), f.note, "LoanNotActive", [1n]);
      // Everything is due, with every installment's late fee.
      const fees = lateFeesOwed({ terms, repaid: 0n, feesPaidThrough: 0 }, await now(f), SERVICING_PARAMS);
      assert.equal(fees.count, 12);
      assert.equal(await f.note.read.payoffAmount([1n]), schedule.totalDue(terms) + fees.amount);
      assert.equal(await f.note.read.amountDueNow([1n]), schedule.totalDue(terms) + fees.amount);
      await fund(f, f.accounts.borrower, 2n * P, f.note.address);
      await f.note.write.repay([1n, 2n * P], { account: f.accounts.borrower.account });
      assert.equal((await f.note.read.loanOf([1n])).status, 2);
    });

    it("is reserved to the originator role", async () => {
      await f.viem.assertions.revertWithCustomError(f.note.write.markDefaulted([1n], { account: user(0).account }), f.note, "AccessControlUnauthorizedAccount");
    });
  });

  describe("views", () => {
    it("agree with the domain schedule for a loan part-way through", async () => {
      await originate(1n, { principal: 25_000_000_000n, rateBps: 850, termMonths: 36 });
      await fund(f, f.accounts.borrower, P, f.note.address);
      await f.networkHelpers.time.increase(95n * DAY);
      const terms = await termsOf(1n);
      // Two installments are past their late fee's time: the payment pays both fees first.
      const split = splitRepayment({ terms, repaid: 0n, feesPaidThrough: 0 }, 900_000_000n, (await now(f)) + 1n, SERVICING_PARAMS)!;
      await f.note.write.repay([1n, 900_000_000n], { account: f.accounts.borrower.account });
      const stored = await f.note.read.loanOf([1n]);
      assert.deepEqual([stored.repaid, stored.feesPaidThrough], [split.installments, 2]);
      assert.equal(split.fees + split.installments, 900_000_000n);
      const loan = { terms, repaid: stored.repaid, feesPaidThrough: stored.feesPaidThrough };
      const repaid = loan.repaid;
      const at = await now(f);
      assert.equal(await f.note.read.monthlyPayment([1n]), schedule.monthlyPayment(terms.principal, 850, 36));
      assert.equal(await f.note.read.totalDue([1n]), schedule.totalDue(terms));
      assert.equal(await f.note.read.nextDueDate([1n]), schedule.nextDueDate(terms, repaid));
      assert.equal(await f.note.read.amountDueNow([1n]), amountDueWithFees(loan, at, SERVICING_PARAMS));
      assert.equal(await f.note.read.outstandingBalance([1n]), schedule.outstandingBalance(terms, repaid));
      assert.equal(await f.note.read.payoffAmount([1n]), payoffWithFees(loan, at, SERVICING_PARAMS));
    });

    it("refuse an id that was never originated", async () => {
      for (const view of ["loanOf", "monthlyPayment", "totalDue", "nextDueDate", "amountDueNow", "outstandingBalance", "payoffAmount"] as const) {
        await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.read[view]([9n]), f.note, "LoanNotFound", [9n]);
      }
    });

    it("count every change a buyer prices (transfer, repayment, default, burn), which marketplace listings rely on", async () => {
      await originate(1n);
      const { treasury, borrower } = f.accounts;
      const holder = getAddress(treasury.account.address);
      assert.deepEqual(await f.note.read.ownershipOf([1n]), [holder, 0, 0n]);
      await f.note.write.transferFrom([treasury.account.address, user(0).account.address, 1n], { account: treasury.account });
      await f.note.write.transferFrom([user(0).account.address, treasury.account.address, 1n], { account: user(0).account });
      assert.deepEqual(await f.note.read.ownershipOf([1n]), [holder, 2, 0n]);
      await fund(f, borrower, 3n * P, f.note.address);
      await f.note.write.repay([1n, 1n], { account: borrower.account });
      await f.note.write.repay([1n, 1n], { account: borrower.account });
      assert.deepEqual(await f.note.read.ownershipOf([1n]), [holder, 4, 0n]);
      assert.equal((await f.note.read.loanOf([1n])).changes, 4);
      await f.networkHelpers.time.increase(400n * DAY);
      await f.note.write.markDefaulted([1n], { account: f.accounts.originator.account });
      // Defaulted with the first installment unpaid: the days since its due date, counting its own day as one.
      const firstDue = BigInt((await f.note.read.loanOf([1n])).start) + 30n * DAY;
      const late = ((await f.publicClient.getBlock()).timestamp - firstDue) / DAY + 1n;
      assert.deepEqual(await f.note.read.ownershipOf([1n]), [holder, 5, late]);
      // The final payment counts once as a repayment and once as the burn.
      await f.note.write.repay([1n, 3n * P], { account: borrower.account });
      assert.deepEqual(await f.note.read.ownershipOf([1n]), [zeroAddress, 7, 0n]);
    });

    it("serve on-chain JSON metadata with an SVG image that fits the ERC-721 metadata schema", async () => {
      await originate(3n, { principal: 1_234_560_000n, rateBps: 805, termMonths: 24 });
      const metadata = decodeJson(await f.note.read.tokenURI([3n]));
      assert.equal(metadata.name, "LoanMint Note #3");
      assert.equal(typeof metadata.description, "string");
      assert.match(metadata.image as string, /^data:image\/svg\+xml;base64,/);
      const svg = Buffer.from((metadata.image as string).split(",")[1], "base64").toString();
      assert.match(svg, /^<svg [^>]*>.*LoanMint Note #3.*Principal \$1234\.56.*8\.05% for 24 months.*<\/svg>$/s);
      const attributes = metadata.attributes as { trait_type: string; value: unknown }[];
      assert.deepEqual(
        attributes.map((a) => [a.trait_type, a.value]),
        [
          ["Principal (USD)", "1234.56"],
          ["Rate", "8.05%"],
          ["Term (months)", 24],
          ["Repaid (USD)", "0.00"],
          ["Status", "Active"],
          ["Start", Number((await f.note.read.loanOf([3n])).start)],
        ],
      );
      await f.viem.assertions.revertWithCustomError(f.note.read.tokenURI([4n]), f.note, "ERC721NonexistentToken");
    });

    it("show a defaulted loan's status in its metadata", async () => {
      await originate(1n);
      await f.networkHelpers.time.increase(400n * DAY);
      await f.note.write.markDefaulted([1n], { account: f.accounts.originator.account });
      const metadata = decodeJson(await f.note.read.tokenURI([1n]));
      const status = (metadata.attributes as { trait_type: string; value: unknown }[]).find((a) => a.trait_type === "Status");
      assert.equal(status?.value, "Defaulted");
    });

    it("declare ERC-721, ERC-4906, AccessControl and ERC-165 support", async () => {
      for (const id of ["0x80ac58cd", "0x5b5e139f", "0x49064906", "0x7965db0b", "0x01ffc9a7"] as const) {
        assert.equal(await f.note.read.supportsInterface([id]), true, id);
      }
      assert.equal(await f.note.read.supportsInterface(["0x780e9d63"]), false);
    });
  });

  describe("administration", () => {
    it("lets the admin change the treasury, never to zero nor to the vault (a note minted there would have no depositor)", async () => {
      const hash = await f.note.write.setTreasury([user(3).account.address]);
      await f.viem.assertions.emitWithArgs(hash, f.note, "TreasuryUpdated", [getAddress(user(3).account.address)]);
      assert.equal(await f.note.read.treasury(), getAddress(user(3).account.address));
      await f.viem.assertions.revertWithCustomError(f.note.write.setTreasury([zeroAddress]), f.note, "ZeroAddress");
      await f.viem.assertions.revertWithCustomErrorWithArgs(f.note.write.setTreasury([f.vault.address]), f.note, "InvalidTreasury", [getAddress(f.vault.address)]);
      await f.viem.assertions.revertWithCustomError(f.note.write.setTreasury([user(3).account.address], { account: user(3).account }), f.note, "AccessControlUnauthorizedAccount");
    });

    it("lets the admin change the grace period up to a year", async () => {
      await f.viem.assertions.emitWithArgs(f.note.write.setGracePeriod([7n * DAY]), f.note, "GracePeriodUpdated", [7n * DAY]);
      assert.equal(await f.note.read.gracePeriod(), 7n * DAY);
      await f.viem.assertions.revertWithCustomError(f.note.write.setGracePeriod([366n * DAY]), f.note, "GracePeriodTooLong");
      await f.viem.assertions.revertWithCustomError(f.note.write.setGracePeriod([DAY], { account: user(3).account }), f.note, "AccessControlUnauthorizedAccount");
    });

    it("refuses zero addresses and an over-long grace period at construction", async () => {
      const { admin, treasury } = f.accounts;
      const d = f.dollar.address;
      const a = admin.account.address;
      const t = treasury.account.address;
      const fees = [DEFAULTS.lateFeeGracePeriodSeconds, DEFAULTS.lateFeeBps, DEFAULTS.defaultAfterDays, zeroAddress] as const;
      for (const args of [
        [zeroAddress, a, t, 0n],
        [d, zeroAddress, t, 0n],
        [d, a, zeroAddress, 0n],
      ] as const) {
        await f.viem.assertions.revertWithCustomError(f.viem.deployContract("LoanNote", [...args, ...fees]), f.note, "ZeroAddress");
      }
      await f.viem.assertions.revertWithCustomError(f.viem.deployContract("LoanNote", [d, a, t, 400n * DAY, ...fees]), f.note, "GracePeriodTooLong");
    });

    it("holds the late fee and default parameters within their bounds at construction, each refused one past its bound", async () => {
      const { admin, treasury } = f.accounts;
      const base = [f.dollar.address, admin.account.address, treasury.account.address, 0n] as const;
      const deploy = (grace: number, bps: number, days: number) => f.viem.deployContract("LoanNote", [...base, grace, bps, days, zeroAddress]);
      const edge = await deploy(60 * 86_400, 1_000, 30);
      assert.deepEqual([await edge.read.lateFeeGracePeriod(), await edge.read.lateFeeBps(), await edge.read.defaultAfterDays()], [60 * 86_400, 1_000, 30]);
      assert.equal(await (await deploy(0, 0, 365)).read.defaultAfterDays(), 365);
      await f.viem.assertions.revertWithCustomErrorWithArgs(deploy(60 * 86_400 + 1, 500, 90), f.note, "LateFeeGracePeriodTooLong", [BigInt(60 * 86_400 + 1)]);
      await f.viem.assertions.revertWithCustomErrorWithArgs(deploy(0, 1_001, 90), f.note, "LateFeeTooHigh", [1_001n]);
      await f.viem.assertions.revertWithCustomErrorWithArgs(deploy(0, 500, 29), f.note, "DefaultAfterDaysOutOfRange", [29n]);
      await f.viem.assertions.revertWithCustomErrorWithArgs(deploy(0, 500, 366), f.note, "DefaultAfterDaysOutOfRange", [366n]);
    });
  });
});

function decodeJson(uri: string): Record<string, unknown> {
  const prefix = "data:application/json;base64,";
  assert.ok(uri.startsWith(prefix));
  return JSON.parse(Buffer.from(uri.slice(prefix.length), "base64").toString("utf8"));
}
