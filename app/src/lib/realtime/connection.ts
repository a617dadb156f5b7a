import type { Socket } from "socket.io-client";
import toast from "react-hot-toast";
import { newsToast } from "../newsToast";
import { create } from "zustand";
import { CLIENT_EVENTS, SERVER_EVENTS, type ServerEventName, type ServerEventPayloads } from "#domain/events";
import { useSession } from "../session";
import { refreshSessionUser } from "../refreshSessionUser";
import { afterFirstPaint } from "../firstPaint";
import { SOCKET_MESSAGES, SOCKET_SETTINGS, socketOptions } from "./options";
import { queryClient } from "../queryClient";
import { collateralQueryPrefixes } from "../nfts/keys";
import { collateralToastText, findPledgedNft, moveTitle } from "../nfts/collateralWords";
import { collateralToast } from "./collateralToast";

export type SocketStatus = "disconnected" | "connecting" | "connected";

const ANNOUNCED_KEY = "loanmint:realtime-announced";

/** Whether this tab was already told live updates are on; marks it told. Storage refused: tell every time. */
function announcedThisTab(): boolean {
  try {
    if (sessionStorage.getItem(ANNOUNCED_KEY) === "1") return true;
    sessionStorage.setItem(ANNOUNCED_KEY, "1");
  } catch {
    return false;
  }
  return false;
}

interface RealtimeState {
  status: SocketStatus;
  /** The reconnection attempts ran out: only a page refresh brings live updates back. */
  lost: boolean;
}

export const useRealtimeStore = create<RealtimeState>(() => ({ status: "disconnected", lost: false }));

const LOST_TOAST_ID = "socket-lost";
let socket: Socket | null = null;
let socketToken: string | null = null;
let statusTimer: ReturnType<typeof setInterval> | null = null;
const listeners = new Map<string, Set<(payload: unknown) => void>>();

const setStatus = (status: SocketStatus) => {
  if (useRealtimeStore.getState().status !== status) useRealtimeStore.setState({ status });
  // Readable without the toast (said once per tab): "live" once the server confirmed the rooms, else the state.
  if (status !== "connected") document.documentElement.dataset.realtime = status;
};

type SocketIo = typeof import("socket.io-client");
let socketIo: Promise<SocketIo> | null = null;
/** The client library is fetched with the first session, so a visitor's first page load never carries it. */
const loadSocketIo = () => (socketIo ??= import("socket.io-client"));

/** Wires the spec's messages and state to a new socket (the connect timeout is the manager's `timeout`). */
function open({ io }: SocketIo, token: string): Socket {
  const s = io(socketOptions(token));
  let everConnected = false;
  let failureAnnounced = false;
  setStatus("connecting");
  useRealtimeStore.setState({ lost: false });

  s.on("connect", () => {
    failureAnnounced = false;
    // Events sent while the socket was away are lost: read the user's status again on every (re)connect.
    void refreshSessionUser();
    setStatus("connected");
    s.emit(CLIENT_EVENTS.subscribeMarketplace);
    s.emit(CLIENT_EVENTS.subscribeLoans);
  });
  s.on(SERVER_EVENTS.connectionConfirmed, () => {
    // Once per tab, as the splash: said on every page load it covered the title and told nothing new.
    document.documentElement.dataset.realtime = "live";
    if (!everConnected && !announcedThisTab()) toast.success(SOCKET_MESSAGES.enabled, { id: "socket-enabled" });
    everConnected = true;
  });
  s.on("disconnect", (reason) => {
    // A server-side disconnect is not retried by socket.io: ask again ourselves (a restart of the API).
    setStatus(reason === "io server disconnect" ? "connecting" : "disconnected");
    if (reason === "io server disconnect") s.connect();
  });
  s.on("connect_error", (error) => {
    setStatus(s.active ? "connecting" : "disconnected");
    // Only the first failure speaks; retries stay quiet until they succeed or run out.
    if (everConnected || failureAnnounced) return;
    failureAnnounced = true;
    toast.error(error.message === "timeout" ? SOCKET_MESSAGES.timeout : SOCKET_MESSAGES.failed, { id: "socket-connect" });
  });
  s.io.on("reconnect", () => {
    toast.dismiss(LOST_TOAST_ID);
    useRealtimeStore.setState({ lost: false });
    toast.success(SOCKET_MESSAGES.restored, { id: "socket-restored" });
  });
  s.io.on("reconnect_failed", () => {
    setStatus("disconnected");
    useRealtimeStore.setState({ lost: true });
    toast.error(SOCKET_MESSAGES.lost, { id: LOST_TOAST_ID, duration: Infinity });
  });
  s.onAny((name: string, payload: unknown) => {
    for (const listener of listeners.get(name) ?? []) listener(payload);
  });
  // The KYC banner follows decisions as they happen; simulations never change state.
  s.on(SERVER_EVENTS.kycStatus, (payload: ServerEventPayloads["kyc:status"] & { simulated?: boolean }) => {
    if (!payload.simulated) useSession.getState().updateUser({ kycStatus: payload.status });
  });
  s.on(SERVER_EVENTS.notificationNew, (payload: ServerEventPayloads["notification:new"]) => {
    if (payload.type === "collateral") return collateralToast.notice(payload.message);
    newsToast.show(payload.message);
  });
  s.on(SERVER_EVENTS.collateralUpdate, onCollateralUpdate);
  s.connect();
  return s;
}

/**
 * A pledged NFT moved: every page that shows it reads again (notes, marketplace, portfolio, loans,
 * explorer), and the wallet that received it is told in words.
 */
function onCollateralUpdate(payload: ServerEventPayloads["collateral:update"]): void {
  for (const queryKey of collateralQueryPrefixes) void queryClient.invalidateQueries({ queryKey });
  const known = queryClient
    .getQueryCache()
    .getAll()
    .reduce<ReturnType<typeof findPledgedNft>>((found, query) => found ?? findPledgedNft(query.state.data, payload.collection, payload.collateralId), null);
  const title = moveTitle(payload, known);
  const me = useSession.getState().user?.walletAddress ?? null;
  const text = collateralToastText(payload, me, title);
  if (text) collateralToast.live(text);
}

function close(): void {
  socket?.removeAllListeners();
  socket?.io.removeAllListeners();
  socket?.disconnect();
  socket = null;
  socketToken = null;
  setStatus("disconnected");
}

/** Follows the session: connected while someone is signed in, with their token; closed on sign-out. */
export function startRealtime(): () => void {
  const follow = (token: string | null) => {
    if (token === socketToken) return;
    close();
    if (!token) return;
    socketToken = token;
    setStatus("connecting");
    loadSocketIo().then(
      (library) => {
        // The session may have changed while the library loaded: only the latest token gets a socket.
        if (socketToken === token && !socket) socket = open(library, token);
      },
      () => {
        socketIo = null; // a later session tries the download again
        if (socketToken !== token) return;
        setStatus("disconnected");
        toast.error(SOCKET_MESSAGES.failed, { id: "socket-connect" });
      },
    );
  };
  // A page opened with a session paints first: the socket library's download waits for that paint, then
  // catches up (a sign-in meanwhile connects at once through the subscription).
  if (useSession.getState().token) setStatus("connecting");
  const cancelFirst = afterFirstPaint(() => follow(useSession.getState().token));
  const unsubscribe = useSession.subscribe((state) => follow(state.token));
  // The status check: the store never drifts from what the socket itself says.
  statusTimer = setInterval(() => {
    if (!socket) return setStatus("disconnected");
    setStatus(socket.connected ? "connected" : socket.active ? "connecting" : "disconnected");
  }, SOCKET_SETTINGS.statusCheckMs);
  return () => {
    cancelFirst();
    unsubscribe();
    if (statusTimer) clearInterval(statusTimer);
    close();
  };
}

/** Calls `handler` for each `name` event on the app's connection; returns the unsubscribe. */
export function onRealtime<N extends ServerEventName>(name: N, handler: (payload: ServerEventPayloads[N]) => void): () => void {
  let set = listeners.get(name);
  if (!set) listeners.set(name, (set = new Set()));
  const wrapped = handler as (payload: unknown) => void;
  set.add(wrapped);
  return () => void set.delete(wrapped);
}
