import { displayUsd } from "./money";
import type { ListingLapseReason } from "./statuses";

/** Why a holder's listing ended without a sale, in the words the notice and the note's pages both use. */
export function listingLapseText(reason: ListingLapseReason, amount: bigint | null): string {
  switch (reason) {
    case "repaid":
      return amount === null ? "a repayment changed the note" : `the borrower repaid ${displayUsd(amount)}`;
    case "defaulted":
      return "the loan defaulted";
    case "moved":
      return "the note moved out of the wallet it was listed from";
    case "burned":
      return "the loan was repaid in full";
  }
}
