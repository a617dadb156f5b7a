import { useState } from "react";
import toast from "react-hot-toast";
import { serverMessage } from "../../../lib/errors";
import { useRetryMint } from "../api/retryMint";
import { ReviewCard } from "../../../lib/review/ReviewCard";
import { mintReviewLines } from "./mintReviewLines";
import type { WireLoan as AdminLoan } from "#domain/wire/loan";
import type { Decision } from "./LoanDecisionModal";

/** Approve and reject for pending loans, view for all, Mint NFT for an approved loan without its note. */
export function LoanActions({ loan, onView, onDecide }: { loan: AdminLoan; onView: () => void; onDecide: (loan: AdminLoan, decision: Decision) => void }) {
  const retry = useRetryMint();
  const [reviewing, setReviewing] = useState(false);
  const mint = () =>
    retry.mutate(loan._id, {
      onSuccess: ({ loan: result, message }) => {
        setReviewing(false);
        if (result.mintStatus === "minted") toast.success(message || "NFT minting retried");
        else toast.error(message);
      },
      // "already minted" and "in progress" are the server's own words: nothing needed retrying.
      onError: (error) => toast.error(serverMessage(error, "Failed to retry minting")),
    });
  const canMint = loan.status === "approved" && !loan.nftTokenId;
  return (
    <div className="admin-actions">
      <button type="button" className="btn btn--ghost btn--sm" onClick={onView} aria-label={`View loan #${loan.loanNumber}`}>
        View
      </button>
      {loan.status === "pending" && (
        <>
          <button type="button" className="btn btn--primary btn--sm" onClick={() => onDecide(loan, "approve")} aria-label={`Approve loan #${loan.loanNumber}`}>
            Approve
          </button>
          <button type="button" className="btn btn--danger-ghost btn--sm" onClick={() => onDecide(loan, "reject")} aria-label={`Reject loan #${loan.loanNumber}`}>
            Reject
          </button>
        </>
      )}
      {canMint && (
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          onClick={() => setReviewing(true)}
          disabled={reviewing || retry.isPending || loan.mintStatus === "minting"}
          aria-label={`Mint NFT for loan #${loan.loanNumber}`}
        >
          {retry.isPending || loan.mintStatus === "minting" ? "Minting…" : "Mint NFT"}
        </button>
      )}
      {canMint && reviewing && (
        <ReviewCard
          title={`Mint the note of loan #${loan.loanNumber}`}
          lines={mintReviewLines(loan)}
          confirmLabel="Confirm mint"
          busyLabel="Minting…"
          busy={retry.isPending}
          onConfirm={mint}
          onCancel={() => setReviewing(false)}
        />
      )}
    </div>
  );
}
