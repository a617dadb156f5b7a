import { useEffect, useRef } from "react";
import type { ServerEventName, ServerEventPayloads } from "#domain/events";
import { onRealtime, useRealtimeStore } from "./connection";
import "./realtime.css";

/** "live" while the socket is connected, else "offline": the dashboard's badge. */
export function useLiveStatus(): "live" | "offline" {
  return useRealtimeStore((state) => (state.status === "connected" ? "live" : "offline"));
}

/** Runs `handler` on each `name` event while the component is mounted (e.g. refetch the dashboard's numbers). */
export function useRealtimeEvent<N extends ServerEventName>(name: N, handler: (payload: ServerEventPayloads[N]) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => onRealtime(name, (payload) => latest.current(payload)), [name]);
}

export function LiveBadge() {
  const status = useLiveStatus();
  return (
    <span className={`live-badge live-badge--${status}`} data-testid="live-badge" role="status" aria-live="polite">
      <span className="dot" aria-hidden="true" />
      {status === "live" ? "Live updates" : "Offline"}
    </span>
  );
}
