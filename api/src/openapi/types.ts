import type { z } from "zod";

/**
 * Who may call an operation. `optional`: anyone, and a bearer token (when sent) must be valid.
 * The docs test checks each claim against the running app, so a wrong one fails.
 */
export type Access = "public" | "optional" | "user" | "admin";

/** A request body the handler reads itself, i.e. one not parsed by validate() (whose schema is read off the route). */
export type BodyDoc = { json: z.ZodType; description?: string } | { multipart: { files: readonly string[]; fields?: z.ZodObject; description?: string } } | { none: true };

/** An answer that is not the `{ success, message, data }` envelope (files, JSON-RPC, the docs themselves). */
export interface RawResponse {
  contentTypes: readonly string[];
  description: string;
  schema?: z.ZodType;
}

export interface Operation {
  summary: string;
  description?: string;
  access: Access;
  /** The same schema object the handler parses req.query with. */
  query?: z.ZodObject;
  /** Path parameters that are more than plain strings; the others are documented as strings. */
  params?: Record<string, z.ZodType>;
  body?: BodyDoc;
  /** An example request body; the docs test parses it with the body schema, so it cannot go stale. */
  example?: unknown;
  /** The envelope's `data` on success, where a schema for it exists. */
  data?: z.ZodType;
  raw?: RawResponse;
  /** Success status; 200 unless the route creates something. */
  status?: number;
}

/** Operations keyed by `METHOD /api/path` in OpenAPI form, as listRoutes() gives them. */
export type Operations = Record<string, Operation>;

export interface OperationGroup {
  tag: string;
  description: string;
  operations: Operations;
}
