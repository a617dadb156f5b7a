import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { chainCredits, chainNotes, kycSubmissions, loans, users, type UserRow } from "#db/schema";
import { displayUsd } from "#domain/money";
import { amountDueNow, type LoanTerms } from "#domain/schedule";
import { answerPersonal } from "./personalAnswers";
import { createChatUserData } from "./userData";

const CHAIN_ID = 31337;
const NOW = new Date("2027-03-01T00:00:00Z");
const nowSeconds = BigInt(NOW.getTime() / 1000);

describe("answers from the user's own records", () => {
  let database: TestDatabase;
  let bo: UserRow;
  let cy: UserRow;
  // The deploy's grace period; a test below gives another, as an admin may set on-chain.
  const THIRTY_DAYS = 30n * 86_400n;
  const ask = (kind: "next_payment" | "loan_status" | "holdings" | "kyc_status" | "rejection" | "eligibility", user: UserRow, gracePeriod = THIRTY_DAYS) =>
    answerPersonal({ kind } as never, user, { data: createChatUserData(database.db, CHAIN_ID), now: () => NOW, gracePeriod: async () => gracePeriod });

  before(async () => {
    database = await createTestDatabase();
    [bo] = await database.db.insert(users).values({ firstName: "Bo", lastName: "B", email: "bo@example.com", kycStatus: "pending" }).returning();
    [cy] = await database.db
      .insert(users)
      .values({ firstName: "Cy", lastName: "C", email: "cy@example.com", kycStatus: "approved", walletAddress: "0x00000000000000000000000000000000000000c1" })
      .returning();
  });
  after(() => database.drop());

  it("tell a borrower past maturity what is overdue and that default is near", async () => {
    const start = nowSeconds - 380n * 86_400n;
    const [loan] = await database.db
      .insert(loans)
      .values({ userId: bo.id, amount: 3_000_000_000n, principal: 3_000_000_000n, purpose: "medical", rateBps: 600, termMonths: 12, status: "active", mintStatus: "minted", noteStart: start })
      .returning();
    await database.db.insert(chainNotes).values({
      chainId: CHAIN_ID,
      tokenId: loan.loanNumber,
      borrower: "0xb0",
      owner: "0xt",
      holder: "0xt",
      principal: 3_000_000_000n,
      rateBps: 600,
      termMonths: 12,
      startTime: Number(start),
      totalRepaid: 0n,
      originTxHash: "0x1",
      originBlock: 1,
      updatedBlock: 1,
    });
    const terms: LoanTerms = { principal: 3_000_000_000n, rateBps: 600, termMonths: 12, start };
    const answer = await ask("next_payment", bo);
    assert.match(answer!, new RegExp(`${displayUsd(amountDueNow(terms, 0n, nowSeconds)).replace(/[$.]/g, "\\$&")} has fallen due and is unpaid`));
    assert.match(answer!, /matured on/);
    assert.match(answer!, /30 days after maturity an unpaid loan can be marked defaulted/);
    assert.match((await ask("loan_status", bo)) as string, /is active: \$0\.00 repaid of .* scheduled, and .* is overdue/);
  });

  it("speak of the grace period the chain has, not a fixed one", async () => {
    assert.match((await ask("next_payment", bo, 7n * 86_400n)) as string, /and 7 days after maturity an unpaid loan can be marked defaulted/);
    const start = nowSeconds - 400n * 86_400n;
    await database.db
      .insert(loans)
      .values({ userId: bo.id, amount: 1_000_000_000n, principal: 1_000_000_000n, purpose: "medical", rateBps: 600, termMonths: 12, status: "defaulted", mintStatus: "minted", noteStart: start });
    assert.match((await ask("loan_status", bo, 86_400n)) as string, /is defaulted: it stayed unpaid until a default could be recorded \(an installment long past due, or 1 day after maturity\)\./);
    assert.match((await ask("loan_status", bo)) as string, /is defaulted: it stayed unpaid until a default could be recorded \(an installment long past due, or 30 days after maturity\)\./);
  });

  it("tell a borrower whose loan is still minting that no payment is due yet", async () => {
    const [other] = await database.db.insert(users).values({ firstName: "Di", lastName: "D", email: "di@example.com" }).returning();
    await database.db
      .insert(loans)
      .values({ userId: other.id, amount: 2_000_000_000n, principal: 2_000_000_000n, purpose: "home_improvement", rateBps: 850, termMonths: 12, status: "approved", mintStatus: "minting" });
    assert.match((await ask("next_payment", other)) as string, /no payments due yet: Loan #\d+ is approved/);
    assert.match((await ask("loan_status", other)) as string, /home improvement\) is approved: its note is being minted/);
  });

  it("speak of a pending KYC's review time and of a missing wallet", async () => {
    assert.match((await ask("kyc_status", bo)) as string, /under review\. Reviews usually take 24–48 hours/);
    assert.match((await ask("holdings", bo)) as string, /no verified wallet yet/);
  });

  it("list what a user still lacks to borrow, or say they are ready", async () => {
    const lacking = (await ask("eligibility", bo)) as string;
    assert.match(lacking, /wait for your KYC review/);
    assert.match(lacking, /link a wallet on your Profile/);
    assert.match((await ask("eligibility", cy)) as string, /You're all set: your KYC is approved and your wallet 0x0000…00c1 is verified/);
  });

  it("give a rejected user their own KYC rejection reason, never another user's newer one", async () => {
    const [ed] = await database.db.insert(users).values({ firstName: "Ed", lastName: "E", email: "ed@example.com", kycStatus: "rejected" }).returning();
    const [fay] = await database.db.insert(users).values({ firstName: "Fay", lastName: "F", email: "fay@example.com", kycStatus: "rejected" }).returning();
    await database.db
      .insert(kycSubmissions)
      .values({ userId: ed.id, idDocumentType: "passport", status: "rejected", rejectionReason: "The photo of the passport is blurred", createdAt: new Date("2027-01-01T00:00:00Z") });
    await database.db
      .insert(kycSubmissions)
      .values({ userId: fay.id, idDocumentType: "passport", status: "rejected", rejectionReason: "Fay's private reason", createdAt: new Date("2027-02-01T00:00:00Z") });
    for (const kind of ["kyc_status", "rejection"] as const) {
      const answer = (await ask(kind, ed)) as string;
      assert.match(answer, /Reason: The photo of the passport is blurred\./, kind);
      assert.doesNotMatch(answer, /Fay/, kind);
    }
  });

  it("count only the repayments credited to the user's own wallet, and only the notes it holds", async () => {
    const [gil] = await database.db
      .insert(users)
      .values({ firstName: "Gil", lastName: "G", email: "gil@example.com", kycStatus: "approved", walletAddress: "0x00000000000000000000000000000000000000a7" })
      .returning();
    await database.db.insert(chainCredits).values([
      { chainId: CHAIN_ID, account: "0x00000000000000000000000000000000000000ff", credited: 900_000_000n, withdrawn: 0n, updatedBlock: 1 },
      { chainId: CHAIN_ID, account: gil.walletAddress!, credited: 250_000_000n, withdrawn: 50_000_000n, updatedBlock: 1 },
    ]);
    assert.equal(
      await ask("holdings", gil),
      "You hold no loan notes at the moment. $200.00 of repayments is credited to you and waiting to be withdrawn from your portfolio ($50.00 withdrawn so far).",
    );
    assert.match((await ask("holdings", cy)) as string, /You hold no loan notes at the moment\. No repayments are waiting to be withdrawn\.$/);
  });

  it("say when nothing was rejected and when nothing is held", async () => {
    assert.match((await ask("rejection", cy)) as string, /Nothing of yours was rejected: your KYC is approved/);
    assert.match((await ask("holdings", cy)) as string, /You hold no loan notes at the moment\. No repayments are waiting to be withdrawn\./);
  });
});
