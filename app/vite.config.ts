import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { precompress } from "./build/precompress.ts";
import { routePreload } from "./build/routePreload.ts";
import { CRITICAL_ROUTES } from "./build/criticalRoutes.ts";
import { reactRouterProduction } from "./build/reactRouterProduction.ts";

const root = fileURLToPath(new URL(".", import.meta.url));
const api = process.env.VITE_API_TARGET ?? "http://localhost:5001";

export default defineConfig({
  root,
  plugins: [react(), reactRouterProduction(), routePreload(CRITICAL_ROUTES), precompress(`${root}/dist`)],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // bench/bundle.ts reads which chunks each entry and route pulls in.
    manifest: true,
    // The wallet stack is large by nature; it is lazy-loaded, so its size does not reach first paint.
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: {
      "/api": { target: api, changeOrigin: false },
      "/socket.io": { target: api, ws: true },
    },
  },
  preview: { port: Number(process.env.VITE_PORT ?? 4173) },
});
