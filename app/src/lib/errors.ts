import { isAxiosError } from "axios";

/** The server's message when there is one (envelope `message`, or `error`), else the fallback. */
export function serverMessage(error: unknown, fallback: string): string {
  if (isAxiosError(error)) {
    const body = error.response?.data as { message?: unknown; error?: unknown } | undefined;
    if (body && typeof body.message === "string" && body.message) return body.message;
    if (body && typeof body.error === "string" && body.error) return body.error;
    return fallback;
  }
  return fallback;
}

/** True when the request never got an answer (offline, timeout, refused). */
export function isNetworkError(error: unknown): boolean {
  return isAxiosError(error) && !error.response;
}

/** Field-level errors the API may return with a 400 ({ errors: [{ path, message }] } or a map). */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!isAxiosError(error)) return {};
  const data = (error.response?.data as { data?: unknown; errors?: unknown }) ?? {};
  const raw = (data.errors ?? (data.data as { errors?: unknown } | undefined)?.errors) as unknown;
  const out: Record<string, string> = {};
  if (Array.isArray(raw)) {
    for (const e of raw as { path?: unknown; field?: unknown; message?: unknown }[]) {
      const key = Array.isArray(e.path) ? String(e.path[0]) : String(e.path ?? e.field ?? "");
      if (key && typeof e.message === "string" && !out[key]) out[key] = e.message;
    }
  } else if (raw && typeof raw === "object") {
    for (const [k, v] of Object.entries(raw)) if (typeof v === "string") out[k] = v;
  }
  return out;
}
