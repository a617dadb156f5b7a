import { PageHeader } from "../../../components/PageHeader";

/** The footer's Privacy Policy and Terms of Service links land here. */
export function LegalPage() {
  return (
    <div className="container page narrow-lg">
      <PageHeader title="Privacy Policy and Terms of Service" subtitle="How LoanMint treats your data and what you agree to when you use it." />
      <article className="card prose" id="privacy">
        <h2>Privacy Policy</h2>
        <p>
          We keep the account details you give us (name, email, phone, address), the KYC documents you upload and the wallet you verify, to decide loan requests and meet identity-verification duties.
        </p>
        <p>Loan notes, transfers and repayments are public on the blockchain by nature. Your name, email and documents are never written on-chain.</p>
        <p>Messages sent through the contact form reach our support team only. We do not sell personal data.</p>
      </article>
      <article className="card prose" id="terms">
        <h2>Terms of Service</h2>
        <p>
          Loans are offered subject to identity verification and approval. An approved loan is funded to your verified wallet and recorded as an NFT loan note held by the lender of record, who may
          sell it.
        </p>
        <p>Repayments are due monthly; you may repay early at any time with no penalty. Unpaid loans past maturity and the grace period may be marked defaulted.</p>
        <p>You are responsible for the security of your wallet and its keys. Transactions you sign cannot be reversed.</p>
      </article>
    </div>
  );
}
