import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import toast from "react-hot-toast";
import { useAccount, useSignMessage, useSwitchChain } from "wagmi";
import { useConnectModal } from "@rainbow-me/rainbowkit";
import { useRuntimeConfig } from "../../../lib/config";
import { serverMessage } from "../../../lib/errors";
import { shortAddress } from "../../../lib/format";
import { homeFor, useSession } from "../../../lib/session";
import { DevWalletPicker } from "../../../lib/wallet/DevWalletPicker";
import { isUserRejection, onConnectFailure, type ConnectFailure } from "../../../lib/wallet/events";
import { getWalletNonce } from "../api/walletNonce";
import { verifyWallet } from "../api/walletVerify";

const CONNECT_MESSAGES: Record<ConnectFailure, string> = {
  rejected: "Connection rejected by user",
  pending: "Connection request already pending",
  "no-accounts": "No accounts found. Please check your wallet.",
  failed: "Failed to connect wallet",
};

type Busy = "idle" | "connecting" | "authenticating";

/** Connect, then sign the server's SIWE message, then verify: a session (spec 01 §4 wallet sign-in). */
export default function WalletSignIn() {
  const { address, isConnected, isConnecting, chainId } = useAccount();
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const { signMessageAsync } = useSignMessage();
  const { switchChainAsync } = useSwitchChain();
  const config = useRuntimeConfig().data!;
  const setSession = useSession((s) => s.setSession);
  const navigate = useNavigate();
  const [busy, setBusy] = useState<Busy>("idle");
  const [error, setError] = useState("");

  useEffect(
    () =>
      onConnectFailure((failure) => {
        setError(CONNECT_MESSAGES[failure]);
        toast.error(CONNECT_MESSAGES[failure], { id: "wallet-connect" });
      }),
    [],
  );

  useEffect(() => {
    if (isConnected) setError("");
  }, [isConnected]);

  const fail = (message: string) => {
    setError(message);
    toast.error(message);
    setBusy("idle");
  };

  const connect = () => {
    setError("");
    openConnectModal?.();
  };

  const signIn = async () => {
    setError("");
    if (!isConnected) return fail("Wallet not connected");
    if (!address) return fail("No wallet account found");
    setBusy("authenticating");
    if (chainId !== config.chainId) {
      try {
        await switchChainAsync({ chainId: config.chainId });
      } catch {
        return fail(`Failed to switch to network ${config.chainId}`);
      }
    }
    let challenge: { message: string; nonce: string };
    try {
      challenge = await getWalletNonce(address);
    } catch {
      return fail("Failed to get authentication nonce");
    }
    let signature: `0x${string}`;
    try {
      signature = await signMessageAsync({ account: address, message: challenge.message });
    } catch (e) {
      if (isUserRejection(e)) {
        toast.error("Signing rejected by user");
        setError("Message signing was cancelled");
        setBusy("idle");
        return;
      }
      return fail("Failed to sign message");
    }
    try {
      const { user, token } = await verifyWallet({ walletAddress: address, signature, message: challenge.message, nonce: challenge.nonce });
      setSession(user, token);
      toast.success(`Welcome back! Wallet connected ${shortAddress(address)}`);
      navigate(homeFor(user), { replace: true });
    } catch (e) {
      return fail(serverMessage(e, "Wallet authentication failed"));
    }
  };

  const connecting = isConnecting || connectModalOpen;
  return (
    <div className="stack wallet-sign-in">
      <DevWalletPicker />
      {isConnected && address && (
        <div className="address-badge" data-testid="connected-address">
          <span className="dot" aria-hidden="true" /> Connected <code>{shortAddress(address)}</code>
        </div>
      )}
      {error && <div className="alert alert--danger" role="alert" data-testid="wallet-error"><p>{error}</p></div>}
      {isConnected ? (
        <button type="button" className="btn btn--secondary btn--block btn--lg" onClick={signIn} disabled={busy !== "idle"}>
          {busy === "authenticating" ? "Authenticating..." : "Sign In with Wallet"}
        </button>
      ) : (
        <button type="button" className="btn btn--secondary btn--block btn--lg" onClick={connect} disabled={connecting}>
          {connecting ? "Connecting Wallet..." : "Connect Wallet"}
        </button>
      )}
    </div>
  );
}
