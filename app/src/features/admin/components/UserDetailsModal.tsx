import { useState } from "react";
import toast from "react-hot-toast";
import { KYC_MESSAGES } from "#domain/schemas/kyc";
import { serverFieldErrors, serverMessage } from "../../../lib/errors";
import { usd } from "../../../lib/format";
import { Spinner } from "../../../components/Spinner";
import { useUserDetails } from "../api/getUserDetails";
import { useDecideKyc } from "../api/decideKyc";
import { Modal } from "./Modal";
import { StatusBadge } from "../../../components/StatusBadge";
import { DocumentViewer } from "./DocumentViewer";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import { dateText, dateTimeText } from "./money";

const ID_TYPES: Record<string, string> = { passport: "Passport", drivers_license: "Driver's license", national_id: "National ID" };

/** A user in full: account, wallet, KYC documents in a viewer with the decision, and their loans. */
export function UserDetailsModal({ userId, onClose }: { userId: string; onClose: () => void }) {
  const { data: user, isLoading, isError, refetch } = useUserDetails(userId);
  const decide = useDecideKyc();
  const [notes, setNotes] = useState("");
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState("");

  const submit = (action: "approve" | "reject") => {
    // A rejection needs its reason, as a loan's does: the user is told it and must act on it.
    if (action === "reject" && !reason.trim()) {
      setReasonError(KYC_MESSAGES.rejectionReason);
      document.getElementById("kyc-reason")?.focus();
      return;
    }
    decide.mutate(
      { userId, action, notes: notes.trim() || undefined, rejectionReason: action === "reject" ? reason.trim() : undefined },
      {
        onSuccess: (message) => {
          toast.success(message || (action === "approve" ? "KYC approved" : "KYC rejected"));
          setNotes("");
          setReason("");
        },
        onError: (error) => {
          const onField = serverFieldErrors(error).rejectionReason;
          if (onField) setReasonError(onField);
          else toast.error(serverMessage(error, "Failed to update KYC status"));
        },
      },
    );
  };

  const docs = user ? Object.values(user.kyc.documents).filter((d) => d !== null) : [];
  return (
    <Modal title={user ? `${user.firstName} ${user.lastName}`.trim() || user.email : "User details"} onClose={onClose} wide testId="user-details">
      {isLoading ? (
        <div className="center">
          <Spinner />
        </div>
      ) : isError || !user ? (
        <div className="alert alert--danger" role="alert">
          Failed to load this user.{" "}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void refetch()}>
            Retry
          </button>
        </div>
      ) : (
        <>
          <dl className="details admin-summary">
            <div>
              <dt>Email</dt>
              <dd>{user.email || "—"}</dd>
            </div>
            <div>
              <dt>Role</dt>
              <dd>{user.role === "admin" ? "Administrator" : user.isWalletUser ? "Wallet user" : "User"}</dd>
            </div>
            <div>
              <dt>Verified wallet</dt>
              <dd>{user.walletAddress ? <ExplorerLink kind="address" id={user.walletAddress} /> : "None"}</dd>
            </div>
            <div>
              <dt>Joined · last login</dt>
              <dd>
                {dateText(user.createdAt)} · {dateText(user.lastLogin)}
              </dd>
            </div>
            <div>
              <dt>KYC</dt>
              <dd>
                <StatusBadge status={user.kyc.status} />
              </dd>
            </div>
            <div>
              <dt>Submitted</dt>
              <dd>
                {dateTimeText(user.kyc.submittedAt)}
                {user.kyc.idDocumentType ? ` · ${ID_TYPES[user.kyc.idDocumentType] ?? user.kyc.idDocumentType}` : ""}
              </dd>
            </div>
            {user.kyc.rejectionReason ? (
              <div>
                <dt>Rejection reason</dt>
                <dd>{user.kyc.rejectionReason}</dd>
              </div>
            ) : null}
            {user.kyc.notes ? (
              <div>
                <dt>Review notes</dt>
                <dd>{user.kyc.notes}</dd>
              </div>
            ) : null}
          </dl>

          <h3 className="section-title">KYC documents</h3>
          {docs.length ? (
            <div className="stack">
              {docs.map((doc) => (
                <DocumentViewer key={doc._id} doc={doc} />
              ))}
            </div>
          ) : (
            <p className="muted">No documents submitted.</p>
          )}

          {user.kyc.status === "pending" && (
            <div className="stack mt" data-testid="kyc-decision">
              <div className="field">
                <label htmlFor="kyc-notes">Review notes (for admins)</label>
                <textarea id="kyc-notes" rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />
              </div>
              <div className={`field${reasonError ? " field--error" : ""}`}>
                <label htmlFor="kyc-reason">Rejection reason (the user sees it; needed to reject)</label>
                <textarea
                  id="kyc-reason"
                  rows={2}
                  value={reason}
                  aria-invalid={reasonError ? true : undefined}
                  aria-describedby={reasonError ? "kyc-reason-error" : undefined}
                  onChange={(e) => {
                    setReason(e.target.value);
                    setReasonError("");
                  }}
                />
                {reasonError && (
                  <p className="field__error" id="kyc-reason-error" role="alert">
                    {reasonError}
                  </p>
                )}
              </div>
              <div className="row gap">
                <button type="button" className="btn btn--primary btn--sm" disabled={decide.isPending} onClick={() => submit("approve")}>
                  Approve KYC
                </button>
                <button type="button" className="btn btn--danger-ghost btn--sm" disabled={decide.isPending} onClick={() => submit("reject")}>
                  Reject KYC
                </button>
              </div>
            </div>
          )}

          <h3 className="section-title">Loans</h3>
          {user.loans.length ? (
            <div className="table-wrap">
              <table className="table table--cards">
                <thead>
                  <tr>
                    <th>#</th>
                    <th>Amount</th>
                    <th>Status</th>
                    <th>Note</th>
                    <th>Requested</th>
                  </tr>
                </thead>
                <tbody>
                  {user.loans.map((loan) => (
                    <tr key={loan._id}>
                      <td data-label="#">{loan.loanNumber}</td>
                      <td data-label="Amount">{usd(loan.amount)}</td>
                      <td data-label="Status">
                        <StatusBadge status={loan.status} />
                      </td>
                      <td data-label="Note">{loan.nftTokenId ? `Note #${loan.nftTokenId}` : loan.mintStatus}</td>
                      <td data-label="Requested">{dateText(loan.requestDate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="muted">No loans.</p>
          )}
        </>
      )}
    </Modal>
  );
}
