import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { parseUsd } from "#domain/money";
import { approvalFormSchema, LOAN_MESSAGES, loanRejectionSchema } from "#domain/schemas/loans";
import { usd } from "../../../lib/format";
import { serverMessage } from "../../../lib/errors";
import { useApproveLoan } from "../api/approveLoan";
import { useRejectLoan } from "../api/rejectLoan";
import { useLoanDetails } from "../api/getLoanDetails";
import { useRetryMint } from "../api/retryMint";
import type { WireLoan as AdminLoan } from "#domain/wire/loan";
import { Modal } from "./Modal";
import { MintProgress } from "./MintProgress";
import { LoanSummary } from "./LoanSummary";
import { CollateralReview } from "./CollateralReview";
import { ApprovalReview } from "./ApprovalReview";
import { ReviewCard } from "../../../lib/review/ReviewCard";
import { mintReviewLines } from "./mintReviewLines";
import type { ApprovalForm } from "#domain/schemas/loans";

export type Decision = "approve" | "reject";

/** Approve (funding amount, the borrower's verified wallet, notes; then the mint and listing live) or reject (a reason). */
export function LoanDecisionModal({ loan, decision: initial, onClose }: { loan: AdminLoan; decision: Decision; onClose: () => void }) {
  const [decision, setDecision] = useState<Decision>(initial);
  const [fundingAmount, setFundingAmount] = useState(loan.amount);
  // The principal is paid only to the borrower's verified wallet (the API refuses any other): shown, never edited.
  const walletAddress = loan.user.walletAddress ?? "";
  const [reviewing, setReviewing] = useState<ApprovalForm | null>(null);
  const [adminNotes, setAdminNotes] = useState("");
  const [rejectionReason, setRejectionReason] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [approveError, setApproveError] = useState("");
  const approve = useApproveLoan();
  const reject = useRejectLoan();
  const retry = useRetryMint();
  const started = approve.isPending || approve.isSuccess || (loan.status !== "pending" && decision === "approve");
  // While the approval runs (funding, mint, listing), its progress is read from the loan every 700 ms.
  const live = useLoanDetails(started ? loan._id : null, approve.isPending || retry.isPending ? 700 : false);
  const current = live.data ?? approve.data?.loan ?? loan;

  const submitApprove = (e: FormEvent) => {
    e.preventDefault();
    const parsed = approvalFormSchema(parseUsd(loan.amount)).safeParse({ fundingAmount, walletAddress, adminNotes });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setApproveError("");
    setReviewing(parsed.data);
  };

  const confirmApprove = (form: ApprovalForm) => {
    setReviewing(null);
    approve.mutate(
      { id: loan._id, ...form },
      {
        onSuccess: ({ loan: result, message }) => {
          if (result.mintStatus === "minted") toast.success(message || "Loan approved successfully!");
          else toast.error(message || "Failed to approve loan");
        },
        onError: (error) => {
          // A refusal (409: no appraisal, the NFT moved or not approved for the escrow) stays said beside the button.
          setApproveError(serverMessage(error, "Failed to approve loan"));
          toast.error(serverMessage(error, "Failed to approve loan"));
        },
      },
    );
  };

  const submitReject = (e: FormEvent) => {
    e.preventDefault();
    const parsed = loanRejectionSchema.safeParse({ rejectionReason, adminNotes });
    if (!parsed.success) {
      setErrors({ rejectionReason: LOAN_MESSAGES.rejectionReason });
      toast.error(LOAN_MESSAGES.rejectionReason, { id: "rejection-reason" });
      return;
    }
    setErrors({});
    reject.mutate(
      { id: loan._id, ...parsed.data },
      {
        onSuccess: () => {
          toast.success("Loan rejected");
          onClose();
        },
        onError: (error) => toast.error(serverMessage(error, "Failed to reject loan")),
      },
    );
  };

  // A failed mint sends the treasury's money when retried, so it is reviewed first; a failed listing is only a signature.
  const [reviewingMint, setReviewingMint] = useState(false);
  const retryMint = () =>
    retry.mutate(loan._id, {
      onSuccess: ({ message }) => {
        setReviewingMint(false);
        toast.success(message);
      },
      onError: (error) => toast.error(serverMessage(error, "Failed to retry minting")),
    });

  const busy = approve.isPending || reject.isPending;
  return (
    <Modal title={started ? `Loan #${loan.loanNumber}: approval` : `Review loan #${loan.loanNumber}`} onClose={busy ? () => undefined : onClose} testId="decision-modal">
      <LoanSummary loan={current} />
      {started ? (
        <>
          <MintProgress loan={current} sending={approve.isPending} />
          <div className="row gap mt">
            {(current.mintStatus === "failed" || current.listingStatus === "failed") && current.status !== "pending" && (
              <button
                type="button"
                className="btn btn--secondary btn--sm"
                onClick={current.mintStatus === "failed" ? () => setReviewingMint(true) : retryMint}
                disabled={retry.isPending || reviewingMint}
              >
                {retry.isPending ? "Retrying…" : current.mintStatus === "failed" ? "Retry mint" : "Retry listing"}
              </button>
            )}
            <button type="button" className="btn btn--primary btn--sm" onClick={onClose} disabled={approve.isPending}>
              {approve.isPending ? "Approving…" : "Done"}
            </button>
          </div>
          {reviewingMint && current.mintStatus === "failed" && (
            <ReviewCard
              title={`Mint the note of loan #${current.loanNumber}`}
              lines={mintReviewLines(current)}
              confirmLabel="Confirm mint"
              busyLabel="Minting…"
              busy={retry.isPending}
              onConfirm={retryMint}
              onCancel={() => setReviewingMint(false)}
            />
          )}
        </>
      ) : (
        <>
          <div className="segmented mt" role="tablist" aria-label="Decision">
            <button
              type="button"
              role="tab"
              aria-selected={decision === "approve"}
              className={decision === "approve" ? "is-active" : ""}
              onClick={() => {
                setDecision("approve");
                setErrors({});
              }}
            >
              Approve
            </button>
            <button
              type="button"
              role="tab"
              aria-selected={decision === "reject"}
              className={decision === "reject" ? "is-active" : ""}
              onClick={() => {
                setDecision("reject");
                setErrors({});
              }}
            >
              Reject
            </button>
          </div>
          {decision === "approve" ? (
            <>
              {current.collateral?.nft && (
                <div className="mt">
                  <CollateralReview loan={current} principal={fundingAmount} onAppraised={() => setApproveError("")} />
                </div>
              )}
              <form className="stack mt" onSubmit={submitApprove} noValidate>
                <Input
                  label="Funding amount (USD)"
                  value={fundingAmount}
                  onChange={setFundingAmount}
                  error={errors.fundingAmount}
                  hint={`Requested: ${usd(loan.amount)}; at most that.`}
                  inputMode="decimal"
                />
                <Input
                  label="Borrower wallet"
                  value={walletAddress}
                  readOnly
                  error={errors.walletAddress}
                  hint={loan.user.walletAddress ? "The borrower's verified wallet; the principal is paid only there." : "The borrower has no verified wallet yet."}
                />
                <TextArea label="Admin notes (optional)" value={adminNotes} onChange={setAdminNotes} />
                {approveError && (
                  <p className="alert alert--danger" role="alert" data-testid="approve-error">
                    {approveError}
                  </p>
                )}
                {reviewing ? (
                  <ApprovalReview
                    loan={current}
                    principal={reviewing.fundingAmount}
                    wallet={reviewing.walletAddress}
                    busy={busy}
                    onConfirm={() => confirmApprove(reviewing)}
                    onCancel={() => setReviewing(null)}
                  />
                ) : (
                  <button type="submit" className="btn btn--primary" disabled={busy}>
                    Approve, fund and mint
                  </button>
                )}
              </form>
            </>
          ) : (
            <form className="stack mt" onSubmit={submitReject} noValidate>
              <TextArea
                label="Rejection reason"
                value={rejectionReason}
                onChange={(v) => {
                  setRejectionReason(v);
                  if (errors.rejectionReason) setErrors({});
                }}
                error={errors.rejectionReason}
              />
              <TextArea label="Admin notes (optional)" value={adminNotes} onChange={setAdminNotes} />
              <button type="submit" className="btn btn--danger" disabled={busy}>
                {reject.isPending ? "Rejecting…" : "Reject loan"}
              </button>
            </form>
          )}
        </>
      )}
    </Modal>
  );
}

function Input({
  label,
  value,
  onChange,
  readOnly,
  error,
  hint,
  inputMode,
}: {
  label: string;
  value: string;
  onChange?: (v: string) => void;
  readOnly?: boolean;
  error?: string;
  hint?: string;
  inputMode?: "decimal";
}) {
  const id = `f-${label.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <div className={`field${error ? " field--error" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        inputMode={inputMode}
        readOnly={readOnly}
        onChange={(e) => onChange?.(e.target.value)}
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : hint ? (
        <p className="field__hint">{hint}</p>
      ) : null}
    </div>
  );
}

function TextArea({ label, value, onChange, error }: { label: string; value: string; onChange: (v: string) => void; error?: string }) {
  const id = `f-${label.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <div className={`field${error ? " field--error" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={3} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={Boolean(error) || undefined} aria-describedby={error ? `${id}-error` : undefined} />
      {error ? (
        <p className="field__error" id={`${id}-error`} role="alert" data-testid="rejection-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
