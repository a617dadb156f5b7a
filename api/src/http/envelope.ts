import type { Response } from "express";

/** Every answer is `{ success, message, data }` (the API's one envelope). */
export interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

export function ok<T>(res: Response, data: T, message = "OK", status = 200): Response {
  return res.status(status).json({ success: true, message, data } satisfies Envelope<T>);
}

export function fail(res: Response, status: number, message: string, data: unknown = null): Response {
  return res.status(status).json({ success: false, message, data } satisfies Envelope<unknown>);
}
