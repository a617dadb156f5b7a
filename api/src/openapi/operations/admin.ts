import { z } from "zod";
import { adminUsersQuerySchema } from "#domain/schemas/admin";
import { ethAddress } from "#domain/schemas/common";
import { loanDecisionSchema, loanListQuerySchema } from "#domain/schemas/loans";
import { tokenIdSchema } from "#domain/schemas/nfts";
import { treasuryAcceptanceSchema, treasuryOffersSchema } from "#domain/wire/treasuryOffer";
import { wireReconciliationSchema } from "#domain/wire/reconciliation";
import type { OperationGroup } from "../types";
import { pageQuery } from "./pageQuery";

const notes = { walletAddress: ethAddress.optional(), adminNotes: z.string().optional(), notes: z.string().optional() };
// The handler reads `decision` (or the body itself) with loanDecisionSchema, then the approval or rejection fields beside it.
const decisionBody = z.union([z.object({ decision: loanDecisionSchema, ...notes }), loanDecisionSchema.extend(notes)]);
const none = { none: true } as const;

export const adminOperations: OperationGroup = {
  tag: "Admin",
  description: "The operator's console: loans, users and KYC, the treasury's notes, jobs and the contact inbox. Admins only.",
  operations: {
    "GET /api/admin/dashboard": { summary: "Dashboard figures", access: "admin" },
    "GET /api/admin/loans": { summary: "All loans, filtered", access: "admin", query: loanListQuerySchema },
    "GET /api/admin/loans/{id}": { summary: "One loan", access: "admin" },
    "PUT /api/admin/loans/{id}/approve": {
      summary: "Approve a loan: fund, mint its note and list it",
      description: "The message says whether the mint went through; a failed mint is retried with /admin/nfts/{id}/retry-mint.",
      access: "admin",
      example: { fundingAmount: "5000", adminNotes: "Documents checked" },
    },
    "PUT /api/admin/loans/{id}/reject": { summary: "Reject a loan", access: "admin", example: { rejectionReason: "Income not verified" } },
    "PUT /api/admin/loans/{id}/decision": {
      summary: "Approve or reject, the spec's decision action",
      access: "admin",
      body: { json: decisionBody },
      example: { decision: { status: "rejected", rejectionReason: "Income not verified" } },
    },
    "POST /api/admin/loans/{id}/default": { summary: "Mark an overdue loan defaulted on-chain", access: "admin", body: none },
    "POST /api/admin/loans/{id}/retry-listing": { summary: "List a minted note that failed to list", access: "admin", body: none },
    "POST /api/admin/nfts/{id}/retry-mint": {
      summary: "Retry minting an approved loan's note",
      description: "`{id}` is the loan's id; `walletAddress` (optional) replaces the borrower's wallet for the mint.",
      access: "admin",
      body: { json: z.object({ walletAddress: ethAddress.optional() }) },
    },
    "POST /api/admin/jobs/loan-watcher": {
      summary:
        "Run the loan job now: mark loans defaulted on-chain once the contract allows it (oldest unpaid installment 90 days past due, or past maturity and the grace period) (the indexer then records them), fail loans minting for over 10 minutes whose origination the chain does not know, and listings a reorg dropped",
      access: "admin",
      body: none,
    },
    "POST /api/admin/jobs/reconcile": { summary: "Reconcile loans with the chain now", access: "admin", body: none },
    "GET /api/admin/users": { summary: "Users, searched and filtered", access: "admin", query: adminUsersQuerySchema },
    "GET /api/admin/users/{id}": { summary: "One user with KYC and loans", access: "admin" },
    "PUT /api/admin/users/{id}/kyc": { summary: "Approve or reject a user's KYC", access: "admin", example: { action: "reject", notes: "Document unreadable" } },
    "GET /api/admin/treasury": { summary: "The treasury's funds and notes", access: "admin" },
    "PUT /api/admin/treasury/notes/{tokenId}/price": {
      summary: "List or reprice a treasury note",
      access: "admin",
      params: { tokenId: tokenIdSchema },
      example: { listingPrice: "5100" },
    },
    "PUT /api/admin/treasury/notes/{tokenId}/par": {
      summary: "List a treasury note again at 100% of par (a signed listing; the old ones cancelled on-chain)",
      access: "admin",
      params: { tokenId: tokenIdSchema },
      body: none,
    },
    "PUT /api/admin/treasury/notes/{tokenId}/unlist": { summary: "Unlist a treasury note", access: "admin", params: { tokenId: tokenIdSchema }, body: none },
    "GET /api/admin/treasury/offers": {
      summary: "Open offers on the treasury's notes",
      description: "Single-note offers and the matching offers each treasury note fits, at their price now, with the marketplace's fee and what the treasury would receive.",
      access: "admin",
      data: treasuryOffersSchema,
    },
    "POST /api/admin/treasury/offers/{hash}/accept": {
      summary: "Accept an offer on a treasury note (the server sends it with the treasury key)",
      description:
        "tokenId is the treasury's note to sell (a matching offer names none); minPrice is the price the admin reviewed, the least the sale may fetch. 404 for an unknown offer, 409 when it is no longer open, the treasury does not hold the note or it now pays less than minPrice.",
      access: "admin",
      params: { hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/) },
      example: { tokenId: "1", minPrice: "5012.5" },
      data: treasuryAcceptanceSchema,
    },
    "POST /api/admin/treasury/withdraw": { summary: "Withdraw the repayments credited to the treasury's notes", access: "admin", body: none },
    "GET /api/admin/reconciliation": {
      summary: "Reconcile the chain, the mirror and the loans table, and prove the treasury's cash",
      description:
        "Every chain read is made at one block (the mirror's, or the head if it is behind): each note's existence, token id, mint status, principal, repaid, status, owner, holder (the vault's depositor) and escrowed collateral, and each holder's credits, compared with the mirror and the loans table; a difference gives the three values, each a value, \"missing\", or null where that source holds no such field. The treasury's stablecoin Transfer logs since the deploy block are each matched to the contract event of their transaction (principal lent, credits withdrawn, sale proceeds net of fee, fees, funding mints); any other is listed unexplained with its transaction. The message is the verdict, e.g. \"Chain, mirror and database agree at block N\".",
      access: "admin",
      data: wireReconciliationSchema,
    },
    "GET /api/admin/contact": { summary: "Contact messages, newest first", access: "admin", query: pageQuery(50, 200) },
    "PUT /api/admin/contact/{id}/read": { summary: "Mark a contact message read", access: "admin", body: none },
    "GET /api/nfts/admin/all": {
      summary: "Every minted note with its loan",
      access: "admin",
      query: pageQuery(50, 100).extend({ mintStatus: z.enum(["minting", "minted", "failed"]).optional() }),
    },
  },
};
