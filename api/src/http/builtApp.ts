import { existsSync, statSync } from "node:fs";
import { extname, join, normalize, sep } from "node:path";
import express, { type RequestHandler } from "express";

const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;

/**
 * Serves the built app: the .br/.gz copies written at build time when the browser accepts them, and
 * a year of immutable caching for Vite's content-hashed /assets/ files.
 */
export function serveBuiltApp(staticDir: string): RequestHandler {
  const files = express.static(staticDir, {
    index: false,
    setHeaders(res, path) {
      if (path.includes(`${sep}assets${sep}`)) res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    },
  });
  const inside = staticDir.endsWith(sep) ? staticDir : staticDir + sep;
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const accepted = String(req.headers["accept-encoding"] ?? "");
    const original = join(staticDir, normalize(safeDecode(req.path)));
    if (!original.startsWith(inside) || !isFile(original)) return next();
    const encoding = ENCODINGS.find((candidate) => accepted.includes(candidate.name) && isFile(original + candidate.suffix));
    res.setHeader("Vary", "Accept-Encoding");
    if (!encoding) return files(req, res, next);
    res.setHeader("Content-Encoding", encoding.name);
    res.type(extname(original));
    req.url = req.url.replace(/([^?]*)/, `$1${encoding.suffix}`);
    return files(req, res, next);
  };
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return "/\0"; // a malformed escape names no file
  }
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}
