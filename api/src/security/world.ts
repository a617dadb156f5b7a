import { eq } from "drizzle-orm";
import type { Address } from "viem";
import { contactMessages, notifications } from "#db/schema";
import { formatUsdAmount, parseUsd } from "#domain/money";
import { fund, listOnChain, makeUser, parPriceNow, sendAs, startLoanStack, validRequest, type LoanStack, type TestUser } from "#testing/loanStack";
import type { Answer } from "../testing/harness";

/** newRegistration's password: every user of the world signs in with it. */
export const PASSWORD = "secret123";
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const USD = 1_000_000n;

/**
 * A private chain with the contracts, the indexer filling the mirror, an admin and two KYC-approved borrowers
 * with funded wallets. Borrower A owns one of everything a path can name: a KYC document, loans, a note in the
 * wallet, a note A listed, a notification, a contact message, a chat history. Borrower B owns nothing of A's.
 */
export interface World {
  stack: LoanStack;
  indexer: NonNullable<LoanStack["indexer"]>;
  /** Has a verified wallet too, so the NFT routes judge an admin as an owner, not as a user without a wallet. */
  admin: TestUser;
  a: TestUser;
  b: TestUser;
  /** A's stored KYC document. */
  kycDocumentId: string;
  /** An approved, minted loan of A whose note the treasury still lists. */
  activeLoanId: string;
  /** A note of A's loans that A bought and holds in the wallet. */
  heldTokenId: string;
  /** A note A bought and listed again; A is its seller. */
  listedTokenId: string;
  listedPrice: string;
  /** Treasury-held notes of A's loans, one per treasury action. */
  treasuryTokenIds: string[];
  notificationId: string;
  contactMessageId: string;
  call(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<Answer>;
  /** A fresh pending loan request of A (rows that decide a loan each get their own). */
  pendingLoanOfA(): Promise<string>;
  /** A fresh approved loan of A: funded, minted, listed by the treasury at `price`, 100% of par (the dirty price) now. */
  approvedLoanOfA(): Promise<{ loanId: string; tokenId: string; price: string }>;
  close(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  // The indexer is what makes an approved loan active and minted: approvals wait for it.
  const stack = await startLoanStack({ indexer: true });
  const indexer = stack.indexer!;
  const call: World["call"] = (method, path, options) => stack.api.call(method, path, options);
  const expect = (answer: Answer, status: number, what: string) => {
    if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.body?.message}`);
    return answer.body.data;
  };
  try {
    const [admin, a, b] = await Promise.all([
      makeUser(stack.api, { admin: true, wallet: true }),
      makeUser(stack.api, { kyc: "none", wallet: true, firstName: "Ada" }),
      makeUser(stack.api, { kyc: "approved", wallet: true, firstName: "Bob" }),
    ]);
    await fund(stack, a.wallet!.address, 100_000n * USD);
    await fund(stack, b.wallet!.address, 100_000n * USD);
    await fund(stack, admin.wallet!.address, 0n);

    // A's KYC goes the real way: an upload, then an admin's approval.
    const form = new FormData();
    form.append("idDocumentType", "passport");
    form.append("idDocument", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "passport.png");
    const uploaded = await fetch(`${stack.api.url}/api/users/kyc/upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${a.token}` } });
    if (uploaded.status !== 200) throw new Error(`KYC upload: ${uploaded.status}`);
    const kycDocumentId = ((await uploaded.json()) as any).data.kycDocuments.idDocument._id as string;
    expect(await call("PUT", `/admin/users/${a.id}/kyc`, { token: admin.token, body: { action: "approve" } }), 200, "KYC approval");

    const pendingLoanOfA = async () => expect(await call("POST", "/loans/request", { token: a.token, body: validRequest }), 201, "loan request")._id as string;
    const approvedLoanOfA = async () => {
      const loanId = await pendingLoanOfA();
      let loan = expect(await call("PUT", `/admin/loans/${loanId}/approve`, { token: admin.token, body: {} }), 200, "approval");
      // On a busy machine the approval may answer before the mirror caught up (its wait is bounded): let it catch up.
      if (loan.mintStatus === "minting") {
        await indexer.caughtUp();
        loan = expect(await call("GET", `/admin/loans/${loanId}`, { token: admin.token }), 200, "approved loan");
      }
      if (loan.mintStatus !== "minted") throw new Error(`approval minted nothing: ${loan.mintStatus}`);
      const tokenId = String(loan.nftTokenId);
      return { loanId, tokenId, price: formatUsdAmount(await parPriceNow(stack, tokenId)) };
    };
    const signPermit = (permit: any) =>
      a.wallet!.signTypedData({
        domain: { ...permit.domain, verifyingContract: permit.domain.verifyingContract as Address },
        types: permit.types,
        primaryType: "Permit",
        message: { ...permit.message, value: BigInt(permit.message.value), nonce: BigInt(permit.message.nonce), deadline: BigInt(permit.message.deadline) },
      });
    /** Buys a treasury-listed note into A's wallet with a signed permit, as the app does, at its par price now. */
    const buyAsA = async (tokenId: string) => {
      const price = formatUsdAmount(await parPriceNow(stack, tokenId));
      const first = expect(await call("POST", `/nfts/${tokenId}/buy`, { token: a.token, body: { expectedPrice: price } }), 200, "buy");
      const { permit, deadline } = first;
      const signature = await signPermit(permit);
      const second = expect(await call("POST", `/nfts/${tokenId}/buy`, { token: a.token, body: { expectedPrice: price, signature, deadline } }), 200, "buy with permit");
      await sendAs(stack, a.wallet!, second.call);
    };

    const active = await approvedLoanOfA();
    const held = await approvedLoanOfA();
    const relisted = await approvedLoanOfA();
    const treasury = [await approvedLoanOfA(), await approvedLoanOfA()];
    await indexer.caughtUp();
    await buyAsA(held.tokenId);
    await buyAsA(relisted.tokenId);
    const listedPrice = "1500";
    await listOnChain(stack, a.wallet!, relisted.tokenId, parseUsd(listedPrice));
    // One installment on the treasury-held note leaves the treasury a repayment to withdraw.
    const repayment = expect(await call("PUT", `/loans/${active.loanId}/repayment`, { token: a.token, body: { amount: "100" } }), 200, "repayment");
    const signed = expect(
      await call("PUT", `/loans/${active.loanId}/repayment`, { token: a.token, body: { amount: "100", signature: await signPermit(repayment.permit), deadline: repayment.deadline } }),
      200,
      "repayment with permit",
    );
    await sendAs(stack, a.wallet!, signed.call);
    await indexer.caughtUp();

    const sent = expect(await call("POST", "/contact", { token: a.token, body: { name: "Ada", email: a.email, subject: "General Inquiry", message: "A question from A" } }), 201, "contact");
    expect(await call("POST", "/chatbot/message", { token: a.token, body: { message: "What is my loan status?" } }), 200, "chatbot");
    const [notification] = await stack.api.database.db.select().from(notifications).where(eq(notifications.userId, a.id)).limit(1);
    if (!notification) throw new Error("A has no notification");
    const [message] = await stack.api.database.db.select().from(contactMessages).where(eq(contactMessages.id, sent._id));

    return {
      stack,
      indexer,
      admin,
      a,
      b,
      kycDocumentId,
      activeLoanId: active.loanId,
      heldTokenId: held.tokenId,
      listedTokenId: relisted.tokenId,
      listedPrice,
      treasuryTokenIds: treasury.map((t) => t.tokenId),
      notificationId: notification.id,
      contactMessageId: message.id,
      call,
      pendingLoanOfA,
      approvedLoanOfA,
      close: () => stack.close(),
    };
  } catch (error) {
    await stack.close();
    throw error;
  }
}
