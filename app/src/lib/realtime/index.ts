export { startRealtime, onRealtime, useRealtimeStore, type SocketStatus } from "./connection";
export { useLiveStatus, useRealtimeEvent, LiveBadge } from "./hooks";
export { SOCKET_MESSAGES, SOCKET_SETTINGS, socketOptions } from "./options";
