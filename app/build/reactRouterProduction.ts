import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "vite";

/**
 * react-router 7's package exports name its development build under every condition (an open upstream
 * issue, remix-run/react-router#14102), so a production bundle would carry its dev warnings and checks:
 * bigger, and slower on every render. The build takes the production build the package ships beside it.
 */
export function reactRouterProduction(): Plugin {
  const pkg = createRequire(import.meta.url).resolve("react-router/package.json");
  return {
    name: "loanmint-react-router-production",
    apply: "build",
    config: () => ({ resolve: { alias: [{ find: /^react-router$/, replacement: join(dirname(pkg), "dist", "production", "index.mjs") }] } }),
  };
}
