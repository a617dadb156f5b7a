import toast from "react-hot-toast";

/**
 * News from elsewhere (a stored notice, a collateral move seen live) has one toast on screen, which the next piece
 * of news replaces; and it stays quiet while the user's own transaction runs and for a while after it: that
 * transaction's own toast already says what happened (a payoff brings a notice, a returned NFT and its notice,
 * which stacked four toasts over the page). Quiet news is not lost: it is in the bell and the notifications page.
 */
const NEWS_ID = "news";
const QUIET_AFTER_OWN_MS = 10_000;
/** The longest an own transaction keeps news quiet if it never says it ended (a page left mid-way). */
const QUIET_WHILE_OWN_MS = 120_000;
let quietUntil = 0;

export const newsToast = {
  /** Shows `message` unless the user's own action speaks now; `success` for good news seen live. */
  show(message: string, options: { duration?: number; success?: boolean } = {}): boolean {
    if (Date.now() < quietUntil) return false;
    const shown = { id: NEWS_ID, duration: options.duration ?? 5000 };
    if (options.success) toast.success(message, shown);
    else toast(message, shown);
    return true;
  },
  /** The user's own transaction starts: news already on screen makes way for its toast. */
  ownStarted() {
    quietUntil = Date.now() + QUIET_WHILE_OWN_MS;
    toast.dismiss(NEWS_ID);
  },
  /** The user's own transaction ended (done or failed): news stays quiet a little longer. */
  ownEnded() {
    quietUntil = Date.now() + QUIET_AFTER_OWN_MS;
  },
};
