import { useEffect, useRef } from "react";
import toast from "react-hot-toast";
import { useAccount } from "wagmi";
import { shortAddress } from "../format";
import { useSession } from "../session";
import { followVerifiedDemoWallet } from "./devChoice";

/** Follows the extension: disconnects, account changes and chain changes are adopted and told. */
export function WalletWatcher() {
  const { address, chainId, status } = useAccount();
  const prev = useRef({ address, chainId, status });
  const verified = useSession((s) => s.user?.walletAddress ?? null);
  useEffect(() => followVerifiedDemoWallet(verified), [verified]);

  useEffect(() => {
    const before = prev.current;
    prev.current = { address, chainId, status };
    if (before.status === "connected" && status === "disconnected") {
      toast("Wallet disconnected", { id: "wallet-disconnected" });
      return;
    }
    if (before.status !== "connected" || status !== "connected") return;
    if (address && before.address && address !== before.address) {
      toast(`Account changed to ${shortAddress(address)}`, { id: "wallet-account" });
    }
    if (chainId && before.chainId && chainId !== before.chainId) {
      toast(`Network changed to chain ID: ${chainId}`, { id: "wallet-chain" });
    }
  }, [address, chainId, status]);

  return null;
}
