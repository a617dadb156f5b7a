import { PageHeader } from "../../../components/PageHeader";
import { useSession } from "../../../lib/session";
import { kycStatusOf } from "../../../lib/user";

const STATUS = {
  none: ["KYC Required", "Verify your identity to request loans and buy loan notes.", "alert--warning"],
  pending: ["Under Review", "Your documents are being reviewed. This usually takes 24-48 hours.", "alert--info"],
  approved: ["Verified", "Your identity is verified: you can request loans and invest.", "alert--success"],
  rejected: ["Verification not approved", "Please resubmit your documents.", "alert--danger"],
} as const;

export function KycPage() {
  const user = useSession((s) => s.user);
  const status = kycStatusOf(user);
  const [title, text, tone] = STATUS[status];
  return (
    <div className="container page">
      <PageHeader title="KYC Verification" subtitle="Identity verification keeps lending safe for borrowers and investors." />
      <div className={`alert ${tone}`} role="status" data-testid="kyc-status"><div><p><strong>{title}</strong></p><p>{text}</p></div></div>
      <div className="grid-2 mt">
        <section className="card">
          <h2>Requirements</h2>
          <ul className="checklist">
            <li><span className="checklist__mark">1</span><div><strong>Government ID</strong><span className="muted small">Passport, driver's license or national ID</span></div></li>
            <li><span className="checklist__mark">2</span><div><strong>Proof of address</strong><span className="muted small">Utility bill or bank statement, dated within 3 months</span></div></li>
            <li><span className="checklist__mark">3</span><div><strong>Income verification</strong><span className="muted small">Pay stubs or tax returns</span></div></li>
          </ul>
          <p className="small muted">Accepted files: images or PDF.</p>
        </section>
        <section className="card">
          <h2>Why verify</h2>
          <ul className="benefits">
            <li>Request loans funded straight to your verified wallet</li>
            <li>Buy loan notes on the marketplace</li>
            <li>Deposit notes into the vault and withdraw repayments</li>
            <li>Decisions within 24-48 hours</li>
          </ul>
        </section>
      </div>
    </div>
  );
}
