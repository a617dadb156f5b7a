import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const swaggerUi = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/** The only files /api/docs/assets/{file} serves: Swagger UI from node_modules and our init script (the CSP forbids inline scripts). */
export const DOC_ASSETS: Record<string, { file: string; type: string }> = {
  "swagger-ui.css": { file: join(swaggerUi, "swagger-ui.css"), type: "text/css" },
  "swagger-ui-bundle.js": { file: join(swaggerUi, "swagger-ui-bundle.js"), type: "text/javascript" },
  "init.js": { file: join(dirname(fileURLToPath(import.meta.url)), "ui", "init.js"), type: "text/javascript" },
};
