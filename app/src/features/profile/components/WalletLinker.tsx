import { useEffect, useEffectEvent, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useAccount, useSignMessage, useSwitchChain } from "wagmi";
import { useConnectModal } from "@rainbow-me/rainbowkit";
import { useQueryClient } from "@tanstack/react-query";
import { useRuntimeConfig } from "../../../lib/config";
import { serverMessage } from "../../../lib/errors";
import { shortAddress } from "../../../lib/format";
import { useSession } from "../../../lib/session";
import { PROFILE_TOAST } from "../../../lib/toast";
import { DevWalletPicker } from "../../../lib/wallet/DevWalletPicker";
import { isUserRejection, onConnectFailure, type ConnectFailure } from "../../../lib/wallet/events";
import { getLinkChallenge, verifyLink } from "../api/linkWallet";
import { profileKey } from "../api/getProfile";

const CONNECT_MESSAGES: Record<ConnectFailure, string> = {
  rejected: "Wallet connection was rejected",
  pending: "Connection request already pending",
  "no-accounts": "No wallet accounts found",
  failed: "Failed to connect wallet",
};

/** Profile wallet: connect by wallet request, then prove it by a SIWE signature that links it. */
export default function WalletLinker({ hint }: { hint?: string }) {
  const { address, isConnected } = useAccount();
  const chainId = useAccount().chainId;
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const { signMessageAsync } = useSignMessage();
  const { switchChainAsync } = useSwitchChain();
  const config = useRuntimeConfig().data!;
  const { setSession, user } = useSession();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const pending = useRef(false);

  const fail = (message: string) => {
    setError(message);
    toast.error(message, PROFILE_TOAST.error);
    setBusy(false);
    pending.current = false;
  };

  useEffect(() => onConnectFailure((failure) => fail(CONNECT_MESSAGES[failure])), []);

  const link = async (wallet: `0x${string}`) => {
    pending.current = false;
    setBusy(true);
    setError("");
    try {
      if (chainId !== config.chainId)
        await switchChainAsync({ chainId: config.chainId }).catch(() => {
          throw new Error(`Failed to switch to network ${config.chainId}`);
        });
    } catch (e) {
      return fail((e as Error).message);
    }
    let challenge: { message: string; nonce: string };
    try {
      challenge = await getLinkChallenge(wallet);
    } catch (e) {
      return fail(serverMessage(e, "Failed to connect wallet"));
    }
    let signature: `0x${string}`;
    try {
      signature = await signMessageAsync({ account: wallet, message: challenge.message });
    } catch (e) {
      return fail(isUserRejection(e) ? "Wallet connection was rejected" : "Failed to connect wallet");
    }
    try {
      const linked = await verifyLink({ walletAddress: wallet, signature, message: challenge.message, nonce: challenge.nonce });
      setSession({ ...(user ?? {}), ...linked.user }, linked.token ?? undefined);
      queryClient.setQueryData(profileKey, linked.user);
      toast.success("Wallet connected successfully!", PROFILE_TOAST.success);
      setBusy(false);
    } catch (e) {
      return fail(serverMessage(e, "Failed to connect wallet"));
    }
  };

  // After the connect modal succeeds, carry on to the signature without a second click.
  const linkNow = useEffectEvent((wallet: `0x${string}`) => void link(wallet));
  useEffect(() => {
    if (pending.current && isConnected && address) linkNow(address);
  }, [isConnected, address]);

  const start = () => {
    setError("");
    if (isConnected && address) return void link(address);
    pending.current = true;
    openConnectModal?.();
  };

  return (
    <div className="stack">
      <DevWalletPicker />
      {hint && (
        <p className="small muted">
          At registration you mentioned <code>{shortAddress(hint)}</code>; connect that wallet to link it.
        </p>
      )}
      {isConnected && address && (
        <div className="address-badge">
          <span className="dot" aria-hidden="true" /> Wallet <code>{shortAddress(address)}</code>
        </div>
      )}
      {error && (
        <div className="alert alert--danger" role="alert" data-testid="wallet-link-error">
          <p>{error}</p>
        </div>
      )}
      <div>
        <button type="button" className="btn btn--primary" onClick={start} disabled={busy || connectModalOpen}>
          {busy ? "Waiting for signature..." : connectModalOpen ? "Connecting Wallet..." : isConnected ? `Link ${shortAddress(address)}` : "Connect Wallet"}
        </button>
      </div>
    </div>
  );
}
