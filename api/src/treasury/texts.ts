import { daysPastDueText } from "#domain/servicing";

/** What the treasury's admin actions answer, in one place. */
export const TREASURY_ANSWERS = {
  repriced: "Listing price updated",
  listed: "Note listed",
  unlisted: "Note unlisted",
  withdrawn: "Repayments withdrawn to the treasury",
  nothingToWithdraw: "The treasury has no repayments waiting to be withdrawn",
  notHeld: "The treasury does not hold this note",
  late: (days: number) => `This note's borrower is ${daysPastDueText(days)}, so the treasury cannot list it now: list it once the loan is current again`,
  notListed: "The treasury has not listed this note",
  noteNotFound: "Note not found",
  offerAccepted: "Offer accepted: the note was sold",
  offerNotFound: "Offer not found",
  offerNotOpen: "This offer is no longer open: it was filled, cancelled, has expired, or no longer fits the note",
  offerOtherNote: "This offer is not for this note",
  priceBelowReviewed: (now: string, seen: string) => `The offer now pays $${now}, less than the $${seen} you reviewed; review it again`,
} as const;
