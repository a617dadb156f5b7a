import { lazy, Suspense, useState } from "react";
import { Spinner } from "../../../components/Spinner";
import "./chat.css";

const loadPanel = () => import("./ChatPanel");
// The conversation UI and its schemas load on first open (or on hover), never with the dashboard itself.
const ChatPanel = lazy(() => loadPanel().then((m) => ({ default: m.ChatPanel })));

/** The floating chat assistant of the dashboard: an open/close button and the panel. */
export function ChatWidget() {
  const [open, setOpen] = useState(false);
  return (
    <div className="chat-widget">
      {open && (
        <Suspense
          fallback={
            <div className="chat-panel chat-panel--loading" role="dialog" aria-label="LoanMint assistant">
              <Spinner label="Loading the assistant" />
            </div>
          }
        >
          <ChatPanel onClose={() => setOpen(false)} />
        </Suspense>
      )}
      <button
        type="button"
        className={`chat-launcher${open ? " chat-launcher--open" : ""}`}
        aria-label={open ? "Close chat assistant" : "Open chat assistant"}
        aria-expanded={open}
        data-testid="chat-toggle"
        onClick={() => setOpen((v) => !v)}
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
      >
        {open ? (
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
          </svg>
        ) : (
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path d="M4 5h16v11H8l-4 4z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
            <path d="M8 9.5h8M8 12.5h5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        )}
      </button>
    </div>
  );
}
