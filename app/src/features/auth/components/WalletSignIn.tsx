import { useEffect, useEffectEvent, useMemo, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import toast from "react-hot-toast";
import { useAccount, useSignMessage, useSwitchChain } from "wagmi";
import { useConnectModal } from "@rainbow-me/rainbowkit";
import { useRuntimeConfig } from "../../../lib/config";
import { serverMessage } from "../../../lib/errors";
import { shortAddress } from "../../../lib/format";
import { returnTo, useSession } from "../../../lib/session";
import { isUserRejection, onConnectFailure, type ConnectFailure } from "../../../lib/wallet/events";
import { getWalletNonce } from "../api/walletNonce";
import { verifyWallet } from "../api/walletVerify";
import type { WalletSignInState } from "./walletSignInState";

const CONNECT_MESSAGES: Record<ConnectFailure, string> = {
  rejected: "Connection rejected by user",
  pending: "Connection request already pending",
  "no-accounts": "No accounts found. Please check your wallet.",
  failed: "Failed to connect wallet",
};

type Busy = "idle" | "connecting" | "authenticating";

/**
 * Connect, then sign the server's SIWE message, then verify: a session (wallet sign-in).
 * It draws nothing: the login page draws the block before this wallet stack has loaded and keeps drawing
 * it from the state reported here, so the button never changes element (no shift, focus stays put).
 * `openNow` opens the connect modal as soon as it can: the visitor pressed Connect while the stack loaded.
 */
export default function WalletSignIn({ onChange, openNow, onOpened }: { onChange: (state: WalletSignInState) => void; openNow: boolean; onOpened: () => void }) {
  const { address, isConnected, chainId } = useAccount();
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const { signMessageAsync } = useSignMessage();
  const { switchChainAsync } = useSwitchChain();
  const config = useRuntimeConfig().data!;
  const setSession = useSession((s) => s.setSession);
  const navigate = useNavigate();
  const location = useLocation();
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

  // Only the request to open and the wallet's state decide; the callbacks are read as they are at that moment.
  const opened = useEffectEvent(onOpened);
  const connectNow = useEffectEvent(connect);
  useEffect(() => {
    if (!openNow) return;
    if (isConnected) return opened(); // a stored connection came back: nothing to open
    if (!openConnectModal) return;
    opened();
    connectNow();
  }, [openNow, isConnected, openConnectModal]);

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
      void navigate(returnTo(location.state, user), { replace: true });
    } catch (e) {
      return fail(serverMessage(e, "Wallet authentication failed"));
    }
  };

  // The page holds these across renders; they always call this render's handlers.
  const latest = useRef({ connect, signIn });
  latest.current = { connect, signIn };
  const actions = useMemo(() => ({ connect: () => latest.current.connect(), signIn: () => void latest.current.signIn() }), []);

  const connected = Boolean(isConnected && address);
  // The modal alone says a connection is under way (as WalletBar, RepayPanel and WalletLinker read it): wagmi's
  // 'connecting' also covers the stack's silent reconnect at mount, and a press then must open the modal, not be lost.
  const connecting = connectModalOpen;
  const authenticating = busy === "authenticating";
  useEffect(() => {
    onChange({ address: connected ? address : undefined, connecting, authenticating, error, ...actions });
  }, [onChange, connected, address, connecting, authenticating, error, actions]);

  return null;
}
