import multer from "multer";

/** What busboy throws for a body that is not well-formed multipart; anything else is the server's own failure. */
const MALFORMED = /multipart|boundary|malformed part header|unexpected end of (form|file)/i;

/** A multipart body the client got wrong: every multer error (limits, a part without a name) and busboy's parse errors. */
export function isMalformedUpload(error: unknown): boolean {
  return error instanceof multer.MulterError || (error instanceof Error && MALFORMED.test(error.message));
}
