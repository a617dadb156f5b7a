import { test } from "node:test";
import assert from "node:assert/strict";
import { notificationsForOutbox } from "./outboxNotifications";

const borrowerId = "11111111-1111-4111-8111-111111111111";
const holderId = "22222222-2222-4222-8222-222222222222";
const loanId = "33333333-3333-4333-8333-333333333333";
const collection = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const to = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const piece = { tokenId: "100", collection, collateralId: "2", txHash: `0x${"ab".repeat(32)}` };
const borrowerRow = (payload: Record<string, unknown>) => ({ event: "collateral:update", rooms: ["admins", "marketplace", `user:${borrowerId}`], payload: { ...piece, loanId, ...payload } });
const holderRow = (payload: Record<string, unknown>) => ({ event: "collateral:update", rooms: [`user:${holderId}`], payload: { ...piece, audience: "holder", ...payload } });

test("a locked pledge tells the borrower their NFT is in escrow for the loan, linked to the loan's page", () => {
  const planned = notificationsForOutbox(borrowerRow({ state: "locked" }));
  assert.deepEqual(planned, [
    {
      content: { type: "collateral", title: "NFT in escrow", message: "Your NFT #2 (0x5fbd…0aa3) is held in escrow for loan #100 until it is repaid.", link: `/loans/${loanId}` },
      recipients: { kind: "rooms", userIds: [borrowerId], admins: false },
    },
  ]);
});

test("a return tells the borrower where the piece went; a refused one tells them to claim it back from the loan page", () => {
  const [returned] = notificationsForOutbox(borrowerRow({ state: "returned", to }));
  assert.equal(returned.content.message, "Loan #100 is repaid: your NFT #2 (0x5fbd…0aa3) was returned to 0x7099…79c8.");
  assert.equal(returned.content.link, `/loans/${loanId}`);
  const [failed, ...rest] = notificationsForOutbox(borrowerRow({ state: "returnFailed" }));
  assert.equal(rest.length, 0);
  assert.equal(failed.content.title, "Claim your NFT");
  assert.match(failed.content.message, /Claim it back from the loan page\.$/);
  assert.deepEqual(failed.recipients, { kind: "rooms", userIds: [borrowerId], admins: false });
});

test("a claim tells the borrower, the admins and the holder, each in their own words; without a loan the borrower is sent to their loans", () => {
  const [borrower, admins] = notificationsForOutbox(borrowerRow({ state: "claimed", to, loanId: undefined }));
  assert.equal(borrower.content.message, "Loan #100 defaulted: your pledged NFT #2 (0x5fbd…0aa3) was claimed by the note's holder.");
  assert.equal(borrower.content.link, "/loans/my-loans");
  assert.deepEqual(admins.recipients, { kind: "rooms", userIds: [], admins: true });
  assert.equal(admins.content.message, "NFT #2 (0x5fbd…0aa3) securing defaulted loan #100 was claimed by the note's holder, sent to 0x7099…79c8.");
  const [holder, ...more] = notificationsForOutbox(holderRow({ state: "claimed", to }));
  assert.equal(more.length, 0);
  assert.deepEqual(holder.recipients, { kind: "rooms", userIds: [holderId], admins: false });
  assert.equal(holder.content.message, "You claimed NFT #2 (0x5fbd…0aa3) securing defaulted loan #100; it was sent to 0x7099…79c8 and the note is settled.");
  assert.equal(holder.content.link, "/nft/100");
  assert.equal(holder.content.type, "collateral");
});

test("every notice names the piece by its collection's name when the API knows it", () => {
  const named = { collectionName: "LoanMint Demo Art", to };
  const messages = [
    ...notificationsForOutbox(borrowerRow({ state: "locked", ...named })),
    ...notificationsForOutbox(borrowerRow({ state: "returned", ...named })),
    ...notificationsForOutbox(borrowerRow({ state: "returnFailed", ...named })),
    ...notificationsForOutbox(borrowerRow({ state: "claimed", ...named })),
    ...notificationsForOutbox(holderRow({ state: "claimed", ...named })),
  ].map((planned) => planned.content.message);
  assert.deepEqual(messages, [
    "Your LoanMint Demo Art #2 is held in escrow for loan #100 until it is repaid.",
    "Loan #100 is repaid: your LoanMint Demo Art #2 was returned to 0x7099…79c8.",
    "Loan #100 is repaid, but its collection refused to send back your LoanMint Demo Art #2. Claim it back from the loan page.",
    "Loan #100 defaulted: your pledged LoanMint Demo Art #2 was claimed by the note's holder.",
    "LoanMint Demo Art #2 securing defaulted loan #100 was claimed by the note's holder, sent to 0x7099…79c8.",
    "You claimed LoanMint Demo Art #2 securing defaulted loan #100; it was sent to 0x7099…79c8 and the note is settled.",
  ]);
  assert.equal(notificationsForOutbox(borrowerRow({ state: "locked", collectionName: "  " }))[0].content.message, "Your NFT #2 (0x5fbd…0aa3) is held in escrow for loan #100 until it is repaid.");
});

test("the holder stores nothing for a lock, a return or a refused return: the borrower's business", () => {
  for (const state of ["locked", "returned", "returnFailed"]) assert.deepEqual(notificationsForOutbox(holderRow({ state, to })), []);
});

test("a refinance tells each side in its own words, and its re-recorded pledge tells nothing more", () => {
  const refs = { tokenId: "100", newTokenId: "340282366920938463463374607431768211556", principal: "1500", payoff: "1012.5", txHash: piece.txHash };
  const row = (audience: string, userId: string, extra: Record<string, unknown> = {}) => ({ event: "loan:refinanced", rooms: [`user:${userId}`], payload: { ...refs, audience, ...extra } });
  const [borrower] = notificationsForOutbox({ ...row("borrower", borrowerId, { loanId }), rooms: ["admins", `user:${borrowerId}`] });
  assert.deepEqual(borrower, {
    content: { type: "loan_refinanced", title: "Loan refinanced", message: "Loan #100 is refinanced: paid off with $1,012.50, your new loan is $1,500.00.", link: `/loans/${loanId}` },
    recipients: { kind: "rooms", userIds: [borrowerId], admins: false },
  });
  const [holder] = notificationsForOutbox(row("holder", holderId));
  assert.equal(holder.content.message, "Note #100 was refinanced and paid off in full: $1,012.50 credited to you.");
  assert.deepEqual(holder.recipients, { kind: "rooms", userIds: [holderId], admins: false });
  const [lender] = notificationsForOutbox(row("lender", holderId));
  assert.equal(lender.content.message, `Your refinance offer was accepted: note #${refs.newTokenId} for $1,500.00 is yours.`);
  assert.equal(lender.content.link, `/nft/${refs.newTokenId}`);
  assert.deepEqual(notificationsForOutbox(borrowerRow({ state: "locked", tokenId: refs.newTokenId, movedFrom: "100" })), []);
});
