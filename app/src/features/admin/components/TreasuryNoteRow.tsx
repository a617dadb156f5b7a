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

/** One treasury note: its terms, and reprice (or list) and unlist, each a transaction the server signs. */
export function TreasuryNoteRow({ note }: { note: TreasuryNote }) {
  const [price, setPrice] = useState(usdInput(note.listingPrice ?? note.principal));
  const [error, setError] = useState<string | null>(null);
  const reprice = useRepriceNote();
  const unlist = useUnlistNote();
  const busy = reprice.isPending || unlist.isPending;

  const submit = () => {
    const parsed = repriceSchema.safeParse({ listingPrice: price });
    if (!parsed.success) return setError(parsed.error.issues[0].message);
    setError(null);
    reprice.mutate({ tokenId: note.tokenId, listingPrice: parsed.data }, {
      onSuccess: (message) => toast.success(message || "Listing price updated"),
      onError: (e) => toast.error(serverMessage(e, "Failed to update the listing")),
    });
  };
  const cancel = () =>
    unlist.mutate(note.tokenId, {
      onSuccess: (message) => toast.success(message || "Note unlisted"),
      onError: (e) => toast.error(serverMessage(e, "Failed to unlist the note")),
    });

  return (
    <tr data-testid="treasury-note">
      <td data-label="Note">#{note.tokenId}</td>
      <td data-label="Loan"><StatusBadge status={note.status} /> <ServicingBadge servicing={note.servicing} testId={`treasury-servicing-${note.tokenId}`} /></td>
      <td data-label="Principal">{usd(note.principal)}</td>
      <td data-label="Repaid">{usd(note.totalRepaid)}</td>
      <td data-label="Listing">{note.listed ? usd(note.listingPrice) : <span className="muted">Not listed</span>}</td>
      <td>
        <div className="row gap-sm">
          <input aria-label={`Price for note #${note.tokenId}`} value={price} onChange={(e) => setPrice(e.target.value)} inputMode="decimal" style={{ width: 120 }} aria-invalid={Boolean(error) || undefined} />
          <button type="button" className="btn btn--secondary btn--sm" disabled={busy} onClick={submit}>{reprice.isPending ? "Sending…" : note.listed ? "Reprice" : "List"}</button>
          {note.listed && <button type="button" className="btn btn--danger-ghost btn--sm" disabled={busy} onClick={cancel}>{unlist.isPending ? "Sending…" : "Unlist"}</button>}
        </div>
        {error && <p className="field__error" role="alert">{error}</p>}
      </td>
    </tr>
  );
}
