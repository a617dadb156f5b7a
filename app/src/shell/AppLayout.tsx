import { Outlet } from "react-router";
import { TopBar } from "./TopBar";
import { Footer } from "./Footer";

export function AppLayout() {
  return (
    <div className="app">
      <a href="#main" className="skip-link">Skip to content</a>
      <TopBar />
      <main id="main" className="main">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
