import type { ManagerOptions, SocketOptions } from "socket.io-client";

/** 5 reconnect attempts, 1 s apart, a 10 s connect timeout, a status check every 5 s. */
export const SOCKET_SETTINGS = {
  reconnectionAttempts: 5,
  reconnectionDelay: 1000,
  timeout: 10_000,
  statusCheckMs: 5000,
} as const;

/** The messages shown for the socket's state. */
export const SOCKET_MESSAGES = {
  timeout: "Connection timeout",
  failed: "Failed to connect",
  lost: "Connection lost. Please refresh the page.",
  restored: "Connection restored!",
  enabled: "Real-time updates enabled!",
} as const;

/** Same origin (the API serves socket.io beside the app; Vite proxies it in development), websocket first. */
export function socketOptions(token: string): Partial<ManagerOptions & SocketOptions> {
  return {
    path: "/socket.io",
    auth: { token },
    transports: ["websocket", "polling"],
    reconnection: true,
    reconnectionAttempts: SOCKET_SETTINGS.reconnectionAttempts,
    reconnectionDelay: SOCKET_SETTINGS.reconnectionDelay,
    reconnectionDelayMax: SOCKET_SETTINGS.reconnectionDelay,
    timeout: SOCKET_SETTINGS.timeout,
    autoConnect: false,
  };
}
