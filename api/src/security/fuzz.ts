/**
 * Seeded generators of hostile requests: wrong types, huge strings, deep nesting, prototype-pollution keys,
 * unicode and NUL bytes, invalid JSON, wrong content types, random query strings and path parameters.
 * The same seed gives the same requests, so a failure printed with its seed can be replayed.
 */

/** mulberry32: small, fast and good enough to pick cases. */
export function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
export type Rng = ReturnType<typeof prng>;

export const HOSTILE_STRINGS = [
  "",
  " ",
  "' OR '1'='1",
  "1; DROP TABLE users;--",
  '" OR ""="',
  "'; SELECT pg_sleep(0); --",
  "1 UNION SELECT NULL,NULL--",
  '{"$ne":null}',
  '{"$gt":""}',
  "$where",
  "../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "/etc/passwd",
  "\u0000",
  "a\u0000b",
  "%00",
  "\uffff",
  "\ud800",
  "\u202e\u0041\u0042",
  "😀".repeat(40),
  "<script>alert(1)</script>",
  "${7*7}",
  "{{7*7}}",
  "-1",
  "0",
  "-0",
  "1e309",
  "-1e309",
  "NaN",
  "Infinity",
  "0x10",
  "9".repeat(120),
  "1.0000000000000000000001",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "0xZZ",
  "0x" + "f".repeat(40),
  "0x" + "0".repeat(130),
  "null",
  "true",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "prototype",
  "\r\nX-Injected: 1",
] as const;

const HOSTILE_NUMBERS = [-1, 0, -0, 1.5, -0.0001, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 64, 1e-320] as const;

export function hostileString(rng: Rng): string {
  if (rng.chance(0.05)) return "A".repeat(1000 + rng.int(20_000));
  if (rng.chance(0.1)) return randomUnicode(rng, 1 + rng.int(40));
  return rng.pick(HOSTILE_STRINGS);
}

function randomUnicode(rng: Rng, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) {
    const range = rng.pick([
      [0, 0x20],
      [0x20, 0x7f],
      [0x80, 0x800],
      [0xd800, 0xe000],
      [0xe000, 0x10000],
      [0x10000, 0x10ffff],
    ] as const);
    out += String.fromCodePoint(range[0] + rng.int(range[1] - range[0]));
  }
  return out;
}

/** Any JSON value, with the wrong types and the odd keys servers trip on. */
export function randomJson(rng: Rng, depth = 0): unknown {
  const kinds = depth > 3 ? ["string", "number", "bool", "null"] : ["string", "number", "bool", "null", "array", "object", "object", "object"];
  switch (rng.pick(kinds)) {
    case "string":
      return hostileString(rng);
    case "number":
      return rng.pick(HOSTILE_NUMBERS);
    case "bool":
      return rng.chance(0.5);
    case "null":
      return null;
    case "array":
      return Array.from({ length: rng.int(4) }, () => randomJson(rng, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = rng.int(5); i > 0; i--)
        object[rng.chance(0.3) ? rng.pick(["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"]) : hostileString(rng).slice(0, 40)] = randomJson(rng, depth + 1);
      return object;
    }
  }
}

/** A valid body with one field (or one level) swapped for something hostile. */
export function mutate(rng: Rng, body: unknown): unknown {
  if (body === null || typeof body !== "object") return rng.chance(0.5) ? randomJson(rng) : body;
  const copy: Record<string, unknown> = Array.isArray(body) ? { ...body } : { ...(body as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const roll = rng.int(6);
  if (roll === 0 || keys.length === 0) copy[rng.pick(["__proto__", "constructor", "prototype"])] = { isAdmin: true, role: "admin", polluted: true };
  else {
    const field = rng.pick(keys);
    if (roll === 1) delete copy[field];
    else if (roll === 2) copy[field] = rng.pick(HOSTILE_NUMBERS);
    else if (roll === 3) copy[field] = randomJson(rng);
    else if (roll === 4 && copy[field] && typeof copy[field] === "object") copy[field] = mutate(rng, copy[field]);
    else copy[field] = hostileString(rng);
  }
  return copy;
}

/** JSON text written by hand, so keys like __proto__ survive and nesting can be deep. */
export function toJsonText(value: unknown): string {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    return `{${Object.keys(value)
      .map((k) => `${JSON.stringify(k)}:${toJsonText((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  if (typeof value === "number" && !Number.isFinite(value)) return "1e999";
  return JSON.stringify(value) ?? "null";
}

export const INVALID_JSON = [
  "{",
  "}",
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  "[1,2",
  "undefined",
  "NaN",
  '"unterminated',
  "\ufeff{}",
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  "1e999999",
  "-",
  "\u0000",
  '{"a":1}{"b":2}',
  "[".repeat(5000) + "]".repeat(5000),
  '{"a":'.repeat(3000) + "1" + "}".repeat(3000),
] as const;

export const CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/xml",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/form-data; boundary=xyz",
  "application/json; charset=utf-16",
  "application/json; charset=nonsense",
  "application/octet-stream",
  "application/vnd.api+json",
  "image/png",
  "text/html",
  ";;;",
  "application/json; boundary=\u00ff",
] as const;

export const HOSTILE_PARAMS = [
  "not-a-uuid",
  "-1",
  "0",
  "-99999999999999999999",
  "99999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999",
  "1.5",
  "1e3",
  "0x1",
  "00000000-0000-0000-0000-000000000000",
  "00000000-0000-0000-0000-00000000000g",
  "' OR 1=1--",
  "1;DROP TABLE loans",
  '{"$ne":null}',
  "..",
  "../../etc/passwd",
  "..%2f..%2fetc%2fpasswd",
  "%2e%2e",
  "%00",
  "%zz",
  "%E0%A4%A",
  "%ED%A0%80",
  "%u0000",
  "😀",
  "a".repeat(3000),
  "__proto__",
  "constructor",
  "null",
  "undefined",
  " ",
] as const;

/** A path parameter as it appears in the URL: already escaped, or deliberately malformed. */
export function hostileParam(rng: Rng): string {
  const raw = rng.pick(HOSTILE_PARAMS);
  // Strings with their own % escapes are sent as they are; the rest escaped so the URL stays sendable.
  return raw.includes("%") ? raw : escape(raw);
}

/** Percent-encoding that survives lone surrogates (they become U+FFFD; raw invalid UTF-8 is in the lists). */
const escape = (text: string) => encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"));

export function randomQuery(rng: Rng): string {
  const keys = [
    "page",
    "limit",
    "status",
    "sort",
    "sortBy",
    "sortOrder",
    "search",
    "minAmount",
    "maxAmount",
    "minBlock",
    "mintStatus",
    "kycStatus",
    "role",
    "unreadOnly",
    "amountBand",
    "rateBand",
    "__proto__",
    "constructor[prototype][x]",
    "a[b][c]",
    "limit[$gt]",
  ];
  const parts: string[] = [];
  for (let i = 1 + rng.int(5); i > 0; i--) {
    const value = rng.chance(0.15) ? rng.pick(["%", "%zz", "%E0%A4%A", "%00", "%ff", "%ED%A0%80"]) : escape(rng.chance(0.5) ? hostileString(rng).slice(0, 300) : String(rng.pick(HOSTILE_NUMBERS)));
    parts.push(`${escape(rng.pick(keys))}=${value}`);
    if (rng.chance(0.1)) parts.push(`${rng.pick(keys)}=${value}`); // repeated keys become arrays
  }
  return parts.join("&");
}

export function randomMultipart(rng: Rng): { contentType: string; body: Buffer } {
  const boundary = `----fuzz${rng.int(1e9)}`;
  const fields = ["idDocument", "proofOfAddress", "proofOfIncome", "profilePicture", "idDocumentType", "__proto__", hostileString(rng).slice(0, 30)];
  const chunks: Buffer[] = [];
  for (let i = rng.int(4); i >= 0; i--) {
    const name = rng.pick(fields).replace(/["\r\n]/g, "");
    const filename = rng.chance(0.7) ? `; filename="${rng.pick(["../../x.png", "a.png", "\u0000.png", "x".repeat(500), "..\\..\\x.png", "/etc/passwd"])}"` : "";
    const content = rng.chance(0.5) ? Buffer.from(hostileString(rng)) : Buffer.from(Array.from({ length: rng.int(2000) }, () => rng.int(256)));
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename}\r\nContent-Type: ${rng.pick(["image/png", "text/html", "application/pdf", "x/y"])}\r\n\r\n`),
      content,
      Buffer.from("\r\n"),
    );
  }
  if (!rng.chance(0.2)) chunks.push(Buffer.from(`--${boundary}--\r\n`)); // sometimes the closing boundary is missing
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}
