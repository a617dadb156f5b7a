import type { PayoffSplit } from "#domain/servicing";
import { ownNoteWords } from "./ownNoteWords";

/** In the buy review, before the wallet is asked anything: the buyer is the borrower of this note's loan. */
export function OwnNoteNotice({ price, split, fee }: { price: bigint; split: PayoffSplit; fee: bigint | null }) {
  return (
    <p className="alert alert--warning small" role="note" data-testid="own-note">
      {ownNoteWords(price, split, fee)}
    </p>
  );
}
