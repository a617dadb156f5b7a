import { useEffect, useState } from "react";

const painted = () => typeof performance !== "undefined" && performance.getEntriesByName("first-contentful-paint").length > 0;

/**
 * Runs `fn` once the page has shown its first content (the paint timing's first-contentful-paint), or after
 * `fallbackMs` where that never comes (a background tab, a browser without paint timing). Downloads a page
 * needs soon but not to paint start here, so they do not compete with the ones the first paint waits for.
 * Returns a cancel function.
 */
export function afterFirstPaint(fn: () => void, fallbackMs = 3000): () => void {
  let pending = true;
  let observer: PerformanceObserver | undefined;
  const cancel = () => {
    pending = false;
    clearTimeout(fallback);
    observer?.disconnect();
  };
  const run = () => {
    if (!pending) return;
    cancel();
    fn();
  };
  const fallback = setTimeout(run, fallbackMs);
  if (painted()) setTimeout(run, 0);
  else if (typeof PerformanceObserver !== "undefined" && PerformanceObserver.supportedEntryTypes?.includes("paint")) {
    // The entry is reported after the frame is shown; the timeout leaves that frame's task first.
    observer = new PerformanceObserver(() => painted() && setTimeout(run, 0));
    observer.observe({ type: "paint" });
  }
  return cancel;
}

/** False until the page has shown its first content (at once after a client-side navigation). */
export function useAfterFirstPaint(): boolean {
  const [done, setDone] = useState(painted);
  useEffect(() => (done ? undefined : afterFirstPaint(() => setDone(true))), [done]);
  return done;
}
