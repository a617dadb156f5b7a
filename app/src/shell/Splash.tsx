import { useEffect, useState } from "react";

export const SPLASH_MS = 2500;
export const SPLASH_FADE_MS = 500;
export const SPLASH_SEEN_KEY = "splash-seen";

/**
 * True the first time in this tab for a visitor arriving at the landing page. A warm start (a session already known
 * in this browser) and a shared link to a page (a note, the marketplace) show their content at once: the splash
 * greets a newcomer, it must not stand between a returning user, or a link's reader, and the page.
 */
export function splashPending(sessionKnown: boolean, entryPath: string): boolean {
  if (sessionKnown || entryPath !== "/") return false;
  try {
    return sessionStorage.getItem(SPLASH_SEEN_KEY) !== "1";
  } catch {
    return false;
  }
}

export function Splash({ onDone }: { onDone: () => void }) {
  const [dots, setDots] = useState(0);
  const [fading, setFading] = useState(false);

  useEffect(() => {
    const tick = setInterval(() => setDots((d) => (d + 1) % 4), 500);
    const fade = setTimeout(() => setFading(true), SPLASH_MS);
    const done = setTimeout(() => {
      sessionStorage.setItem(SPLASH_SEEN_KEY, "1");
      onDone();
    }, SPLASH_MS + SPLASH_FADE_MS);
    return () => {
      clearInterval(tick);
      clearTimeout(fade);
      clearTimeout(done);
    };
  }, [onDone]);

  return (
    <div className={`splash${fading ? " splash--fading" : ""}`} role="status" aria-live="polite" data-testid="splash">
      <div className="splash__mark" aria-hidden="true">
        <span className="logo-mark logo-mark--xl">M</span>
        <span className="splash__ring" />
      </div>
      <p className="splash__brand">LoanMint</p>
      <p className="splash__text">
        Loading<span className="splash__dots">{".".repeat(dots)}</span>
      </p>
    </div>
  );
}
