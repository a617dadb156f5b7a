import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { useRealtimeEvent } from "../../../lib/realtime/hooks";
import { useSession } from "../../../lib/session";
import { kycStatusOf, type KycStatus } from "../../../lib/user";
import { kycStatusKey, useKycStatus } from "../api/getKycStatus";
import { KycUploadForm } from "../components/KycUploadForm";

const STATUS: Record<KycStatus, [string, string, string]> = {
  none: ["KYC Required", "Verify your identity to request loans and buy loan notes.", "alert--warning"],
  pending: ["Under Review", "Your documents are being reviewed. This usually takes 24-48 hours.", "alert--info"],
  approved: ["Verified", "Your identity is verified: you can request loans and invest.", "alert--success"],
  rejected: ["Verification not approved", "Please resubmit your documents.", "alert--danger"],
};

const DOC_LABELS: Record<string, string> = { idDocument: "Government ID", proofOfAddress: "Proof of address", proofOfIncome: "Income verification" };

export function KycPage() {
  const queryClient = useQueryClient();
  const sessionStatus = kycStatusOf(useSession((s) => s.user));
  const kyc = useKycStatus();
  // The socket layer already moves the session's status; the submission details are refetched here.
  useRealtimeEvent("kyc:status", () => void queryClient.invalidateQueries({ queryKey: kycStatusKey }));
  const status: KycStatus = kyc.data?.status ?? sessionStatus;
  // The server's answer wins over a stored session that missed a live decision (the loan pages read the session).
  useEffect(() => {
    if (kyc.data && kyc.data.status !== sessionStatus) useSession.getState().updateUser({ kycStatus: kyc.data.status });
  }, [kyc.data, sessionStatus]);
  const [title, text, tone] = STATUS[status];
  const reason = status === "rejected" ? kyc.data?.kyc.rejectionReason : null;
  const docs = kyc.data?.kycDocuments ?? {};

  return (
    <div className="container page">
      <PageHeader title="KYC Verification" subtitle="Identity verification keeps lending safe for borrowers and investors." />
      <div className={`alert ${tone}`} role="status" data-testid="kyc-status" data-status={status}>
        <div>
          <p>
            <strong>{title}</strong>
          </p>
          <p>{reason ? `Reason: ${reason}. ${text}` : text}</p>
          {kyc.data?.kyc.submittedAt && <p className="small muted">Submitted {new Date(kyc.data.kyc.submittedAt).toLocaleString()}</p>}
        </div>
      </div>
      {kyc.isError && (
        <p className="alert alert--danger mt" role="alert">
          Could not load your verification details.{" "}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void kyc.refetch()}>
            Retry
          </button>
        </p>
      )}
      <div className="grid-2 mt">
        <section className="card">
          <h2>Requirements</h2>
          <ul className="checklist" data-testid="kyc-checklist">
            {(["idDocument", "proofOfAddress", "proofOfIncome"] as const).map((field, i) => {
              const doc = docs[field];
              return (
                <li key={field} className={doc ? "is-done" : ""}>
                  <span className="checklist__mark" aria-hidden="true">
                    {doc ? "✓" : i + 1}
                  </span>
                  <div>
                    <strong>{DOC_LABELS[field]}</strong>
                    <span className="muted small">
                      {field === "idDocument"
                        ? "Passport, driver's license or national ID"
                        : field === "proofOfAddress"
                          ? "Utility bill or bank statement, dated within 3 months"
                          : "Pay stubs or tax returns"}
                      {doc ? ` — received ${new Date(doc.uploadedAt).toLocaleDateString()}` : ""}
                    </span>
                  </div>
                </li>
              );
            })}
          </ul>
          <p className="small muted">Accepted files: images or PDF.</p>
        </section>
        {kyc.isPending ? (
          <section className="card center" role="status">
            <Spinner /> Loading…
          </section>
        ) : status === "approved" ? (
          <section className="card" data-testid="kyc-approved">
            <h2>You are verified</h2>
            <p className="muted">Nothing more to upload. You can request loans and buy notes.</p>
          </section>
        ) : status === "pending" ? (
          <section className="card" data-testid="kyc-pending">
            <h2>Documents received</h2>
            <p className="muted">An administrator reviews them within 24-48 hours. This page updates as soon as they decide.</p>
          </section>
        ) : (
          <KycUploadForm />
        )}
      </div>
      <section className="card mt">
        <h2>Why verify</h2>
        <ul className="benefits">
          <li>Request loans funded straight to your verified wallet</li>
          <li>Buy loan notes on the marketplace</li>
          <li>Deposit notes into the vault and withdraw repayments</li>
          <li>Decisions within 24-48 hours</li>
        </ul>
      </section>
    </div>
  );
}
