import toast from "react-hot-toast";
import type { PublicConfig } from "#domain/deployment";
import { explorerLink } from "./config";
import { newsToast } from "./newsToast";

/**
 * One toast that follows an on-chain action through its steps (prepare, sign, send, confirmed), ending with a
 * link to the transaction in the explorer; the next action's toast takes its place.
 */
let lastId: string | undefined;

export function txProgress(config: PublicConfig | undefined) {
  newsToast.ownStarted();
  // A new action's toast replaces the last one's result, still up for a few seconds: one toast on screen.
  if (lastId) toast.dismiss(lastId);
  const id = toast.loading("Preparing…");
  lastId = id;
  const link = (hash: string) => {
    const href = explorerLink(config, "tx", hash);
    return (
      <a href={href} target={href.startsWith("/") ? undefined : "_blank"} rel="noreferrer">
        View transaction
      </a>
    );
  };
  return {
    step(message: string) {
      toast.loading(message, { id });
    },
    done(message: string, hash?: string) {
      newsToast.ownEnded();
      toast.success(
        <span>
          {message}
          {hash ? <> — {link(hash)}</> : null}
        </span>,
        { id, duration: 8000 },
      );
    },
    fail(message: string, hash?: string) {
      newsToast.ownEnded();
      toast.error(
        <span>
          {message}
          {hash ? <> — {link(hash)}</> : null}
        </span>,
        { id, duration: 8000 },
      );
    },
  };
}
