import { useEffect } from "react";
import { Outlet, useLocation } from "react-router";
import { refreshSessionUser } from "../lib/refreshSessionUser";
import { TopBar } from "./TopBar";
import { Footer } from "./Footer";

export function AppLayout() {
  const { pathname } = useLocation();
  // Each page opens with the user's current status (KYC, wallet), whatever happened while they were away.
  useEffect(() => void refreshSessionUser(), [pathname]);
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <TopBar />
      <main id="main" className="main">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
