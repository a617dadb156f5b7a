import { useState, type ReactNode } from "react";

/** Where a long section is folded away by default: a phone, where it would push what matters screens down. */
export const PHONE_QUERY = "(max-width: 760px)";

const onPhone = () => typeof window !== "undefined" && window.matchMedia(PHONE_QUERY).matches;

/**
 * A card whose body opens and closes under its title: open on a wide screen, folded on a phone, or `folded` on every
 * screen (a body that reads the chain, which a page's first paint should not wait or pay for). Its body is only
 * rendered while open, so a folded event log costs no request.
 */
export function Fold({ id, title, testId, folded = false, children }: { id: string; title: string; testId?: string; folded?: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(() => !folded && !onPhone());
  return (
    <details className="card fold" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid={testId}>
      <summary className="fold__summary">
        <h2 id={id}>{title}</h2>
      </summary>
      {open && <div className="stack fold__body">{children}</div>}
    </details>
  );
}
