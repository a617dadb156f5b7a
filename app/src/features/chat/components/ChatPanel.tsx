import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import toast from "react-hot-toast";
import { ASSISTANT_NAME, CHAT_MAX_LENGTH, CHAT_MESSAGES, type ChatHistoryMessage } from "#domain/schemas/chatbot";
import { useChatHistory } from "../api/getChatHistory";
import { useSendChatMessage } from "../api/sendChatMessage";
import { useClearChatHistory } from "../api/clearChatHistory";
import { chatHistoryKey } from "../api/keys";
import { MessageText } from "./MessageText";

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/** Who answered, in words: never a generative service unless one really answered. */
export function answeredBy(message: Pick<ChatHistoryMessage, "source" | "model">): string {
  return message.source === "llm" && message.model ? `${ASSISTANT_NAME} + ${message.model}` : ASSISTANT_NAME;
}

const welcome = (): ChatHistoryMessage => ({ id: "welcome", content: CHAT_MESSAGES.welcome, sender: "bot", timestamp: new Date().toISOString(), source: null, model: null });

export function ChatPanel({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const history = useChatHistory(true);
  const send = useSendChatMessage();
  const clear = useClearChatHistory();
  const [draft, setDraft] = useState("");
  // Replies that failed are shown but never stored: the server kept nothing of that exchange.
  const [welcomeMessage, setWelcomeMessage] = useState(welcome);
  const listRef = useRef<HTMLOListElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  const stored = history.data ?? [];
  const messages = stored.length === 0 ? [welcomeMessage] : stored;
  const lastBot = [...stored].reverse().find((m) => m.sender === "bot" && m.source);
  const waiting = send.isPending;

  useEffect(() => {
    inputRef.current?.focus();
  }, []);
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages.length, waiting]);

  const append = (...added: ChatHistoryMessage[]) => queryClient.setQueryData<ChatHistoryMessage[]>(chatHistoryKey, (old) => [...(old ?? []), ...added]);

  function submit() {
    const message = draft.trim();
    if (!message || waiting) return;
    const asked: ChatHistoryMessage = { id: `local-${Date.now()}`, content: message, sender: "user", timestamp: new Date().toISOString(), source: null, model: null };
    append(asked);
    setDraft("");
    send.mutate(message, {
      onSuccess: (reply) => append({ id: reply.id, content: reply.message, sender: "bot", timestamp: reply.timestamp, source: reply.source, model: reply.model }),
      onError: () => {
        append({ id: `error-${Date.now()}`, content: CHAT_MESSAGES.replyFailed, sender: "bot", timestamp: new Date().toISOString(), source: null, model: null });
        toast.error(CHAT_MESSAGES.replyFailedToast);
      },
    });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Escape") onClose();
    // Enter sends; Shift+Enter falls through to the textarea's own newline. Composing (IME) text is left alone.
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    submit();
  }

  function onClear() {
    clear.mutate(undefined, {
      onSuccess: () => {
        setWelcomeMessage(welcome());
        toast.success(CHAT_MESSAGES.cleared);
      },
      onError: () => toast.error(CHAT_MESSAGES.clearFailed),
    });
  }

  return (
    <section className="chat-panel" role="dialog" aria-label={ASSISTANT_NAME} data-testid="chat-panel">
      <header className="chat-panel__header">
        <div>
          <h2 className="chat-panel__title">{ASSISTANT_NAME}</h2>
          <p className="chat-panel__powered" data-testid="chat-powered-by">
            Powered by {lastBot ? answeredBy(lastBot) : ASSISTANT_NAME}
          </p>
        </div>
        <div className="chat-panel__actions">
          <button type="button" className="chat-icon-btn" onClick={onClose} aria-label="Close chat assistant" title="Close">
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      </header>

      <ol className="chat-messages" ref={listRef} role="log" aria-live="polite" aria-label="Conversation" data-testid="chat-messages">
        {history.isLoading && <li className="chat-status muted small">Loading your conversation…</li>}
        {!history.isLoading &&
          messages.map((m) => (
            <li key={m.id} className={`chat-message chat-message--${m.sender}`} data-sender={m.sender}>
              <div className="chat-bubble">
                <MessageText text={m.content} linkify={m.sender === "bot"} />
              </div>
              <div className="chat-meta">
                {m.sender === "bot" && m.source && (
                  <span data-testid="chat-source">
                    {answeredBy(m)} · {m.source === "llm" ? "model" : "knowledge base"}
                  </span>
                )}
                <time dateTime={m.timestamp}>{time(m.timestamp)}</time>
              </div>
            </li>
          ))}
        {waiting && (
          <li className="chat-message chat-message--bot" data-testid="chat-typing">
            <div className="chat-bubble chat-typing" aria-label="The assistant is typing">
              <span />
              <span />
              <span />
            </div>
          </li>
        )}
      </ol>

      <form className="chat-input" onSubmit={onSubmit}>
        <label htmlFor="chat-input" className="sr-only">
          Your message
        </label>
        <textarea
          id="chat-input"
          ref={inputRef}
          rows={2}
          value={draft}
          maxLength={CHAT_MAX_LENGTH}
          placeholder="Ask about loans, KYC, wallets…"
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          data-testid="chat-input"
        />
        <button type="submit" className="btn btn--primary btn--sm" disabled={waiting || draft.trim() === ""} data-testid="chat-send">
          Send
        </button>
      </form>
      {/* At the bottom, away from the toasts that stack at the top right. */}
      <div className="chat-footer">
        <span className="muted small">Enter to send · Shift+Enter for a new line</span>
        <button type="button" className="chat-clear" onClick={onClear} disabled={clear.isPending || stored.length === 0} aria-label="Clear chat history" data-testid="chat-clear">
          <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true">
            <path d="M5 7h14M10 7V5h4v2M7 7l1 12h8l1-12" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          Clear chat
        </button>
      </div>
    </section>
  );
}
