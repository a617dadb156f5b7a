import { useCallback, useEffect, useState } from "react";
import { Outlet, ScrollRestoration, useLocation, useNavigation } from "react-router";
import { useSession } from "../lib/session";
import { Splash, splashPending } from "./Splash";

/** The splash first (once per tab, for a newcomer at the landing page), a thin progress bar while a lazy route loads, and the page. */
export function RootLayout() {
  const [splash, setSplash] = useState(() => splashPending(useSession.getState().user !== null, window.location.pathname));
  const done = useCallback(() => setSplash(false), []);
  const navigation = useNavigation();
  const { hash, pathname } = useLocation();

  useEffect(() => {
    if (!hash) return;
    const el = document.getElementById(hash.slice(1));
    el?.scrollIntoView({ behavior: "smooth" });
  }, [hash, pathname]);

  return (
    <>
      {navigation.state === "loading" && <div className="route-progress" aria-hidden="true" />}
      {splash ? <Splash onDone={done} /> : null}
      <div className={splash ? "behind-splash" : undefined} aria-hidden={splash || undefined}>
        <Outlet />
      </div>
      <ScrollRestoration />
    </>
  );
}
