import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { QueryClientProvider } from "@tanstack/react-query";
import { queryClient } from "./lib/queryClient";
import { AppToaster, dedupeErrorToasts } from "./lib/toast";
import { setNavigator } from "./lib/navigation";
import { router } from "./routes";
import { startRealtime } from "./lib/realtime";
import "./shell/theme";
import "./styles/base.css";
import "./styles/shell.css";
import "./styles/pages.css";

dedupeErrorToasts();
setNavigator((to, options) => void router.navigate(to, options));
// One socket.io connection for the signed-in session, opened and closed with it.
startRealtime();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <AppToaster />
    </QueryClientProvider>
  </StrictMode>,
);
