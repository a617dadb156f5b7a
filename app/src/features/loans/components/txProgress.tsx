import toast from "react-hot-toast";
import { ExplorerLink } from "./TxLink";

/** One toast that follows a repayment through its steps and ends with the transaction's explorer link. */
export function txProgress() {
  const id = toast.loading("Preparing…");
  const link = (hash?: string) => (hash ? <> — <ExplorerLink kind="tx" id={hash}>View transaction</ExplorerLink></> : null);
  return {
    step: (message: string) => void toast.loading(message, { id }),
    done: (message: string, hash?: string) => void toast.success(<span>{message}{link(hash)}</span>, { id, duration: 8000 }),
    fail: (message: string, hash?: string) => void toast.error(<span>{message}{link(hash)}</span>, { id, duration: 8000 }),
  };
}
