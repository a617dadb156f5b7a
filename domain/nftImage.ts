/**
 * The one rule for showing another collection's NFT: only as an `<img>` of a data URI that says it is an
 * image, in base64, of bounded size. An `<img>` never runs a script, even of an SVG; anything else (a remote URL,
 * HTML, a JSON or text data URI, a malformed or oversized payload) is not shown. The API keeps only what passes, and
 * the app checks again before it renders.
 */

/** Big enough for on-chain art, small enough that one card cannot weigh down a page of them. */
export const MAX_NFT_IMAGE_BYTES = 256 * 1024;

const IMAGE_DATA_URI = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,([A-Za-z0-9+/]+={0,2})$/;

/** The URI itself when it is a checked image data URI, else null. */
export function checkedImageDataUri(uri: unknown): string | null {
  if (typeof uri !== "string") return null;
  // The base64 text is 4/3 of the bytes; checking the length first keeps the pattern off huge strings.
  if (uri.length > 64 + Math.ceil((MAX_NFT_IMAGE_BYTES * 4) / 3)) return null;
  const match = IMAGE_DATA_URI.exec(uri);
  const payload = match?.[2];
  if (!payload || payload.length % 4 !== 0) return null;
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
  return (payload.length / 4) * 3 - padding <= MAX_NFT_IMAGE_BYTES ? uri : null;
}
