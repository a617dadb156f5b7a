import { Router, type Express } from "express";
import { notFound } from "../http/errors";
import { DOC_ASSETS } from "./assets";
import { buildOpenApiDocument } from "./document";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>LoanMint API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<noscript><p>This page needs JavaScript. The reference itself is <a href="/api/docs/openapi.json">/api/docs/openapi.json</a>.</p></noscript>
<main id="swagger-ui" aria-label="LoanMint API reference"></main>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/init.js"></script>
</body>
</html>
`;

/**
 * /api/docs: Swagger UI over /api/docs/openapi.json, all same-origin. The document describes `app` as it is
 * once every route is mounted, so it is built at the first request and kept (routes do not change afterwards).
 */
export function createDocsRouter(app: Express): Router {
  const router = Router();
  let json: string | undefined;

  router.get("/", (_req, res) => {
    res.type("html").setHeader("Cache-Control", "no-cache");
    res.send(PAGE);
  });

  router.get("/openapi.json", (_req, res) => {
    json ??= JSON.stringify(buildOpenApiDocument(app).document);
    res.type("application/json").setHeader("Cache-Control", "no-cache");
    res.send(json);
  });

  router.get("/assets/:file", (req, res) => {
    const asset = Object.hasOwn(DOC_ASSETS, req.params.file) ? DOC_ASSETS[req.params.file] : undefined;
    if (!asset) throw notFound("No such file");
    res.type(asset.type).sendFile(asset.file, { maxAge: "1h" });
  });

  return router;
}
