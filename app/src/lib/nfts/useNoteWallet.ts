import { useWalletSender } from "../wallet/useWalletSender";
import { waitForMirror } from "./waitForMirror";

/** Notes move only from the verified wallet, and the pages read the API's mirror, so each send waits until it has the block. */
export const useNoteWallet = () => useWalletSender({ requireVerifiedWallet: true, afterReceipt: (receipt) => waitForMirror(receipt.blockNumber) });
