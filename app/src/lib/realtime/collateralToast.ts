import toast from "react-hot-toast";

/**
 * A moved NFT's news has one place on screen. The same move arrives twice, in no set order: live
 * (`collateral:update`, which names the piece) and as the stored notice (`notification:new`); the live words win,
 * and a notice arriving soon after them is not toasted again (it stays in the notifications list).
 */
const ID = "collateral-notice";
const REPEAT_MS = 10_000;
let spokenAt = 0;

export const collateralToast = {
  live(text: string) {
    spokenAt = Date.now();
    toast.success(text, { id: ID, duration: 8000 });
  },
  notice(message: string) {
    if (Date.now() - spokenAt < REPEAT_MS) return;
    toast(message, { id: ID, duration: 5000 });
  },
  /** The user's own claim says it with its transaction's link: the live words and the notice would only repeat it. */
  ownMoveDone() {
    spokenAt = Date.now();
    toast.dismiss(ID);
  },
};
