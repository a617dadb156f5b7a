import { useEffect, useRef, type RefObject } from "react";

/** While `open`, a press outside `ref` or the Escape key calls `close` (dropdowns and popovers). */
export function useDismiss(ref: RefObject<HTMLElement | null>, open: boolean, close: () => void): void {
  // The latest `close` without re-subscribing on every render (callers pass an inline arrow).
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) latest.current();
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key === "Escape") latest.current();
    };
    document.addEventListener("mousedown", outside);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("mousedown", outside);
      document.removeEventListener("keydown", escape);
    };
  }, [ref, open]);
}
