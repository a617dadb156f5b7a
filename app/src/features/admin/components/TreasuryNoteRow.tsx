import { useState } from "react";
import toast from "react-hot-toast";
import { serverMessage } from "../../../lib/errors";
import type { TreasuryNote } from "../api/getTreasury";
import { repriceSchema } from "#domain/schemas/admin";
import { useRepriceNote } from "../api/repriceNote";
import { useUnlistNote } from "../api/unlistNote";
import { StatusBadge } from "../../../components/StatusBadge";
import { ServicingBadge } from "../../../components/ServicingBadge";
import { usd, usdInput } from "../../../lib/format";
import { ReviewCard } from "../../../lib/review/ReviewCard";
import { displayUsd } from "#domain/money";

const TEXTS = {
  listTitle: (tokenId: string, listed: boolean) => `${listed ? "Reprice" : "List"} note #${tokenId}`,
  price: "New price",
  listSends: (listed: boolean) =>
    listed
      ? "a new listing signed with the treasury key (no gas), then one transaction cancelling the old listing on-chain (gas from the treasury, no dollars)"
      : "a new listing signed with the treasury key (no gas)",
  unlistTitle: (tokenId: string) => `Unlist note #${tokenId}`,
  unlistSends: "one transaction with the treasury key cancelling this note's listings on-chain (gas from the treasury, no dollars)",
  serverSends: "The server sends",
};

/** One treasury note: its terms, and reprice (or list) and unlist, each reviewed, then signed by the server. */
export function TreasuryNoteRow({ note }: { note: TreasuryNote }) {
  const [price, setPrice] = useState(usdInput(note.listingPrice ?? note.principal));
  const [error, setError] = useState<string | null>(null);
  const [reviewing, setReviewing] = useState<{ kind: "price"; price: bigint } | { kind: "unlist" } | null>(null);
  const reprice = useRepriceNote();
  const unlist = useUnlistNote();
  const busy = reprice.isPending || unlist.isPending;

  const review = () => {
    const parsed = repriceSchema.safeParse({ listingPrice: price });
    if (!parsed.success) return setError(parsed.error.issues[0].message);
    setError(null);
    setReviewing({ kind: "price", price: parsed.data });
  };
  const submit = (listingPrice: bigint) => {
    setReviewing(null);
    reprice.mutate(
      { tokenId: note.tokenId, listingPrice },
      {
        onSuccess: (message) => toast.success(message || "Listing price updated"),
        onError: (e) => toast.error(serverMessage(e, "Failed to update the listing")),
      },
    );
  };
  const cancel = () => {
    setReviewing(null);
    unlist.mutate(note.tokenId, {
      onSuccess: (message) => toast.success(message || "Note unlisted"),
      onError: (e) => toast.error(serverMessage(e, "Failed to unlist the note")),
    });
  };

  return (
    <tr data-testid="treasury-note">
      <td data-label="Note">#{note.tokenId}</td>
      <td data-label="Loan">
        <StatusBadge status={note.status} /> <ServicingBadge servicing={note.servicing} testId={`treasury-servicing-${note.tokenId}`} />
      </td>
      <td data-label="Principal">{usd(note.principal)}</td>
      <td data-label="Repaid">{usd(note.totalRepaid)}</td>
      <td data-label="Listing">{note.listed ? usd(note.listingPrice) : <span className="muted">Not listed</span>}</td>
      <td>
        <div className="row gap-sm">
          <input
            aria-label={`Price for note #${note.tokenId}`}
            value={price}
            onChange={(e) => setPrice(e.target.value)}
            inputMode="decimal"
            style={{ width: 120 }}
            aria-invalid={Boolean(error) || undefined}
          />
          <button type="button" className="btn btn--secondary btn--sm" disabled={busy || reviewing !== null} onClick={review}>
            {reprice.isPending ? "Sending…" : note.listed ? "Reprice" : "List"}
          </button>
          {note.listed && (
            <button type="button" className="btn btn--danger-ghost btn--sm" disabled={busy || reviewing !== null} onClick={() => setReviewing({ kind: "unlist" })}>
              {unlist.isPending ? "Sending…" : "Unlist"}
            </button>
          )}
        </div>
        {error && (
          <p className="field__error" role="alert">
            {error}
          </p>
        )}
        {reviewing?.kind === "price" && (
          <ReviewCard
            title={TEXTS.listTitle(note.tokenId, note.listed)}
            lines={[
              { label: TEXTS.price, value: displayUsd(reviewing.price), testId: "review-price" },
              { label: TEXTS.serverSends, value: TEXTS.listSends(note.listed), testId: "review-sends" },
            ]}
            confirmLabel={`Confirm ${note.listed ? "reprice" : "listing"}`}
            onConfirm={() => submit(reviewing.price)}
            onCancel={() => setReviewing(null)}
          />
        )}
        {reviewing?.kind === "unlist" && (
          <ReviewCard
            title={TEXTS.unlistTitle(note.tokenId)}
            lines={[{ label: TEXTS.serverSends, value: TEXTS.unlistSends, testId: "review-sends" }]}
            confirmLabel="Confirm unlist"
            onConfirm={cancel}
            onCancel={() => setReviewing(null)}
          />
        )}
      </td>
    </tr>
  );
}
