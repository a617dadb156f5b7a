import { useEffect, useRef, useState } from "react";
import { io, type Socket } from "socket.io-client";
import { PageHeader } from "../../../components/PageHeader";
import { useSession } from "../../../lib/session";
import { SOCKET_MESSAGES, socketOptions, type SocketStatus } from "../../../lib/realtime";
import "../../../lib/realtime/realtime.css";

interface Received {
  id: number;
  event: string;
  payload: string;
  at: string;
}

const MAX_MESSAGES = 10;

/** The simulations ask the server for sample events sent to this page only; nothing is stored or changed. */
const SIMULATIONS = [
  { event: "simulate:loan:request", label: "Simulate loan request" },
  { event: "simulate:loan:approval", label: "Simulate loan approval" },
  { event: "simulate:kyc:approval", label: "Simulate KYC approval" },
  { event: "simulate:loan:funded", label: "Simulate loan funding" },
] as const;

/** Connect, disconnect, ping, a test message and the simulations, with the last 10 messages. */
export function WebSocketTestPage() {
  const token = useSession((s) => s.token);
  const [status, setStatus] = useState<SocketStatus>("disconnected");
  const [error, setError] = useState<string | null>(null);
  const [messages, setMessages] = useState<Received[]>([]);
  const socket = useRef<Socket | null>(null);
  const counter = useRef(0);

  useEffect(
    () => () => {
      socket.current?.disconnect();
      socket.current = null;
    },
    [],
  );

  const log = (event: string, payload: unknown) => {
    counter.current += 1;
    const entry = { id: counter.current, event, payload: JSON.stringify(payload ?? null), at: new Date().toLocaleTimeString() };
    setMessages((current) => [entry, ...current].slice(0, MAX_MESSAGES));
  };

  const connect = () => {
    if (!token) return;
    socket.current?.disconnect();
    setError(null);
    setStatus("connecting");
    const s = io(socketOptions(token));
    s.on("connect", () => setStatus("connected"));
    s.on("disconnect", () => setStatus(s.active ? "connecting" : "disconnected"));
    s.on("connect_error", (e) => {
      setStatus(s.active ? "connecting" : "disconnected");
      setError(e.message === "timeout" ? SOCKET_MESSAGES.timeout : `${SOCKET_MESSAGES.failed}: ${e.message}`);
    });
    s.io.on("reconnect_failed", () => setError(SOCKET_MESSAGES.lost));
    s.onAny((event: string, payload: unknown) => log(event, payload));
    socket.current = s;
    s.connect();
  };

  const disconnect = () => {
    socket.current?.disconnect();
    socket.current = null;
    setStatus("disconnected");
  };

  const send = (event: string, payload?: unknown) => {
    socket.current?.emit(event, payload);
  };

  const connected = status === "connected";
  return (
    <div className="container page">
      <PageHeader title="WebSocket test" subtitle="The real-time connection to the API. Simulated events reach this page only and change nothing." />
      <section className="card stack">
        <p>
          Status: <strong data-testid="socket-status">{status}</strong>
        </p>
        {error && (
          <p className="muted" role="alert" data-testid="socket-error">
            {error}
          </p>
        )}
        <div className="row gap-sm">
          <button type="button" className="btn btn--primary btn--sm" onClick={connect} disabled={status !== "disconnected" || !token}>
            Connect
          </button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={disconnect} disabled={status === "disconnected"}>
            Disconnect
          </button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => send("ping")} disabled={!connected}>
            Ping
          </button>
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            onClick={() => send("test:message", { message: "Hello from the test page", timestamp: new Date().toISOString() })}
            disabled={!connected}
          >
            Send test message
          </button>
        </div>
        <div className="row gap-sm">
          {SIMULATIONS.map((simulation) => (
            <button key={simulation.event} type="button" className="btn btn--secondary btn--sm" onClick={() => send(simulation.event)} disabled={!connected}>
              {simulation.label}
            </button>
          ))}
        </div>
      </section>
      <section className="card stack">
        <div className="row socket-log-head">
          <h2>Last {MAX_MESSAGES} messages</h2>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => setMessages([])} disabled={messages.length === 0}>
            Clear
          </button>
        </div>
        {messages.length === 0 ? (
          <p className="muted">No messages received yet.</p>
        ) : (
          <ul className="socket-log" data-testid="socket-messages">
            {messages.map((m) => (
              <li key={m.id}>
                <span className="muted small">{m.at}</span> <strong>{m.event}</strong> <code>{m.payload}</code>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
