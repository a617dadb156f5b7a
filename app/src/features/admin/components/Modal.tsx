import { useEffect, useId, useRef, type ReactNode } from "react";

/** A dialog over the page: Escape and the backdrop close it, focus moves into it. */
export function Modal({ title, onClose, children, wide, testId }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean; testId?: string }) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    panel.current?.focus();
    const esc = (e: KeyboardEvent) => e.key === "Escape" && close.current();
    document.addEventListener("keydown", esc);
    return () => document.removeEventListener("keydown", esc);
  }, []);
  return (
    <div className="admin-modal">
      <button type="button" className="admin-modal__backdrop" aria-label="Close" tabIndex={-1} onClick={onClose} />
      <div className={`admin-modal__panel${wide ? " admin-modal__panel--wide" : ""}`} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} ref={panel} data-testid={testId}>
        <div className="admin-modal__head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-btn" aria-label="Close dialog" onClick={onClose}>
            ✕
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
