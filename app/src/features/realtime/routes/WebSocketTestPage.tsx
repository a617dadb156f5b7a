import { useEffect, useRef, useState } from "react";
import { io, type Socket } from "socket.io-client";
import { PageHeader } from "../../../components/PageHeader";
import { useSession } from "../../../lib/session";

type Status = "disconnected" | "connecting" | "connected";
interface Received { event: string; payload: string; at: string }

/** Connect, disconnect, ping and watch what the server pushes (spec 02 §2). */
export function WebSocketTestPage() {
  const token = useSession((s) => s.token);
  const [status, setStatus] = useState<Status>("disconnected");
  const [messages, setMessages] = useState<Received[]>([]);
  const socket = useRef<Socket | null>(null);

  useEffect(() => () => void socket.current?.disconnect(), []);

  const connect = () => {
    socket.current?.disconnect();
    setStatus("connecting");
    const s = io({ auth: { token }, transports: ["websocket", "polling"], reconnectionAttempts: 5, reconnectionDelay: 1000, timeout: 10_000 });
    s.on("connect", () => setStatus("connected"));
    s.on("disconnect", () => setStatus("disconnected"));
    s.on("connect_error", () => setStatus("disconnected"));
    s.onAny((event: string, payload: unknown) =>
      setMessages((m) => [{ event, payload: JSON.stringify(payload ?? null), at: new Date().toLocaleTimeString() }, ...m].slice(0, 10)),
    );
    socket.current = s;
  };

  return (
    <div className="container page">
      <PageHeader title="WebSocket test" subtitle="The real-time connection to the API." />
      <section className="card stack">
        <p>Status: <strong data-testid="socket-status">{status}</strong></p>
        <div className="row gap-sm">
          <button type="button" className="btn btn--primary btn--sm" onClick={connect} disabled={status !== "disconnected"}>Connect</button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => socket.current?.disconnect()} disabled={status === "disconnected"}>Disconnect</button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => socket.current?.emit("ping")} disabled={status !== "connected"}>Ping</button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => socket.current?.emit("test:message", { text: "Hello from the test page" })} disabled={status !== "connected"}>Send test message</button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => setMessages([])}>Clear</button>
        </div>
        <h2>Last 10 messages</h2>
        {messages.length === 0 ? <p className="muted">No messages received yet.</p> : (
          <ul className="log">{messages.map((m, i) => <li key={i}><span className="muted small">{m.at}</span> <strong>{m.event}</strong> <code className="break">{m.payload}</code></li>)}</ul>
        )}
      </section>
    </div>
  );
}
