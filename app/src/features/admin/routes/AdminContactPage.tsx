import { useState } from "react";
import { countText } from "../../../lib/format";
import { useContactMessages } from "../api/getContactMessages";
import { useMarkContactRead } from "../api/markContactRead";
import { AdminPage } from "../components/AdminPage";
import { QueryState } from "../components/QueryState";
import { dateTimeText } from "../components/money";

/** /admin/contact: the contact form's inbox (our own API, no outside form service). */
export function AdminContactPage() {
  const query = useContactMessages();
  const markRead = useMarkContactRead();
  const [open, setOpen] = useState<string | null>(null);
  const messages = query.data ?? [];
  const unread = messages.filter((m) => !m.read).length;

  const toggle = (id: string, read: boolean) => {
    setOpen((current) => (current === id ? null : id));
    if (!read) markRead.mutate(id);
  };

  return (
    <AdminPage title="Messages" subtitle={query.data ? `${countText(messages.length, "message")}, ${unread} unread` : "What visitors wrote through the contact form."}>
      <QueryState
        loading={query.isLoading}
        error={query.isError}
        empty={!messages.length}
        errorText="Failed to load messages. Please try again."
        emptyText="No messages yet"
        onRetry={() => void query.refetch()}
      >
        <div className="admin-list" data-testid="contact-inbox">
          {messages.map((m) => (
            <article key={m._id} className="card admin-card">
              <button
                type="button"
                className="row gap"
                style={{ justifyContent: "space-between", background: "none", border: 0, padding: 0, font: "inherit", color: "inherit", cursor: "pointer", textAlign: "left" }}
                aria-expanded={open === m._id}
                onClick={() => toggle(m._id, m.read)}
              >
                <span>
                  {!m.read && <span className="badge badge--warning">New</span>} <strong>{m.subject}</strong>
                  <span className="muted small">
                    {" "}
                    · {m.name} &lt;{m.email}&gt;
                  </span>
                </span>
                <span className="muted small">{dateTimeText(m.createdAt)}</span>
              </button>
              {open === m._id && (
                <div className="stack">
                  <p style={{ whiteSpace: "pre-wrap", margin: 0 }}>{m.message}</p>
                  <p className="small muted" style={{ margin: 0 }}>
                    <a href={`mailto:${m.email}?subject=${encodeURIComponent(`Re: ${m.subject}`)}`}>Reply by email</a>
                    {m.phone ? ` · ${m.phone}` : ""}
                  </p>
                </div>
              )}
            </article>
          ))}
        </div>
      </QueryState>
    </AdminPage>
  );
}
