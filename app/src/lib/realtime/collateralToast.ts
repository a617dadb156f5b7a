import { newsToast } from "../newsToast";

/**
 * A moved NFT's news. The same move arrives twice, in no set order: live (`collateral:update`, which names the
 * piece) and as the stored notice (`notification:new`); the live words win, and a notice arriving soon after them is
 * not toasted again (it stays in the notifications list). Both go through the one news toast.
 */
const REPEAT_MS = 10_000;
let spokenAt = 0;

export const collateralToast = {
  live(text: string) {
    spokenAt = Date.now();
    newsToast.show(text, { duration: 8000, success: true });
  },
  notice(message: string) {
    if (Date.now() - spokenAt < REPEAT_MS) return;
    newsToast.show(message);
  },
  /** The user's own claim says it with its transaction's link: the live words and the notice would only repeat it. */
  ownMoveDone() {
    spokenAt = Date.now();
  },
};
