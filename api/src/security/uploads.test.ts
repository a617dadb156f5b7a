import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { dirname, join } from "node:path";
import { makeUser, type TestUser } from "#testing/loanStack";
import { startTestApi, type TestApi } from "../testing/harness";
import { PNG } from "./world";

/**
 * Hostile uploads on the two upload routes (avatar: POST /users/profile/upload-picture; KYC: POST /users/kyc/upload).
 * The bytes decide what a file is; the client's name and type never name a path or a served type.
 */
const text = (s: string) => Buffer.from(s, "utf8");
const PNG_HTML = Buffer.concat([PNG, text("<html><body><script>alert(document.cookie)</script></body></html>")]);
const PNG_PHP = Buffer.concat([PNG, text("<?php system($_GET['c']); ?>")]);
/** "GIF89a" then a width of "/*": a valid GIF header that is also the start of a JavaScript comment. */
const GIF_JS = Buffer.concat([
  text("GIF89a/*"),
  Buffer.from([0x01, 0x00, 0x80, 0x00, 0x00, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b]),
  text("*/=alert(1);//"),
]);
const SVG_SCRIPT = text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');
const HTML = text("<!doctype html><html><script>fetch('/api/auth/me')</script></html>");
const PDF_JS = text("%PDF-1.4\n1 0 obj<</Type/Catalog/OpenAction 2 0 R>>endobj\n2 0 obj<</S/JavaScript/JS(app.alert(1))>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");

interface Part {
  field: string;
  content: Buffer;
  name: string;
  type?: string;
}

let api: TestApi;
let admin: TestUser;

before(async () => {
  api = await startTestApi();
  admin = await makeUser(api, { admin: true });
});
after(async () => {
  await api?.close();
});

async function post(path: string, token: string | undefined, parts: Part[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const part of parts) form.append(part.field, new Blob([new Uint8Array(part.content)], { type: part.type ?? "application/octet-stream" }), part.name);
  const response = await fetch(`${api.url}/api${path}`, { method: "POST", body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, body: (await response.json()) as any };
}
const avatar = (token: string, part: Omit<Part, "field">) => post("/users/profile/upload-picture", token, [{ field: "profilePicture", ...part }]);
const kyc = (token: string, parts: Part[], idDocumentType = "passport") => post("/users/kyc/upload", token, parts, { idDocumentType });

async function fetchFile(path: string, token?: string) {
  const response = await fetch(`${api.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** A GET with the path exactly as written: fetch would resolve %2e%2e and .. before sending. */
function rawGet(path: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: api.server.port, path, method: "GET" }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Every file under the data folder, relative to it. */
const stored = () =>
  readdirSync(api.config.dataDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(api.config.dataDir.length + 1));
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const ONLY_GENERATED = new RegExp(`^(uploads/avatars/${UUID}\\.(png|gif|jpg|webp)|kyc/${UUID}/${UUID}\\.(png|gif|jpg|webp|pdf|tif|heic))$`);

describe("polyglot files", () => {
  test("an avatar that is a PNG or GIF with HTML, PHP or JavaScript after it is stored and served only as that image, with nosniff", async () => {
    const user = await makeUser(api);
    for (const [content, name, type, mime] of [
      [PNG_HTML, "evil.html", "text/html", "image/png"],
      [PNG_PHP, "shell.php", "application/x-php", "image/png"],
      [GIF_JS, "payload.js", "text/javascript", "image/gif"],
    ] as const) {
      const answer = await avatar(user.token, { content, name, type });
      assert.equal(answer.status, 200, `${name}: ${answer.body.message}`);
      const path = new URL(answer.body.data.profilePicture).pathname;
      assert.match(path, new RegExp(`^/api/uploads/avatars/${UUID}\\.${mime.split("/")[1]}$`));
      const served = await fetchFile(path);
      assert.equal(served.headers.get("content-type"), mime);
      assert.equal(served.headers.get("x-content-type-options"), "nosniff");
      assert.match(served.headers.get("content-security-policy") ?? "", /default-src 'self'/);
      assert.deepEqual(served.body, content, "served byte for byte, never rewritten into something else");
    }
  });

  test("an SVG with a script, an HTML page or a PDF is never an avatar, whatever its name and type claim", async () => {
    const user = await makeUser(api);
    const before = stored();
    for (const [content, name, type] of [
      [SVG_SCRIPT, "x.svg", "image/svg+xml"],
      [HTML, "x.png", "image/png"],
      [PDF_JS, "x.png", "image/png"],
    ] as const) {
      const answer = await avatar(user.token, { content, name, type });
      assert.equal(answer.status, 400, name);
      assert.equal(answer.body.message, "Please select a valid image file");
    }
    assert.deepEqual(stored(), before);
  });

  test("KYC documents that are polyglots, or a PDF with JavaScript, download only as attachments of their real type, to their owner and admins", async () => {
    const [owner, other] = await Promise.all([makeUser(api), makeUser(api)]);
    const answer = await kyc(owner.token, [
      { field: "idDocument", content: PNG_HTML, name: "id.html", type: "text/html" },
      { field: "proofOfAddress", content: PDF_JS, name: "bill.pdf", type: "application/pdf" },
      { field: "proofOfIncome", content: GIF_JS, name: "pay.js", type: "text/javascript" },
    ]);
    assert.equal(answer.status, 200, answer.body.message);
    const docs = answer.body.data.kycDocuments;
    for (const [kind, mime, ext, content] of [
      ["idDocument", "image/png", "png", PNG_HTML],
      ["proofOfAddress", "application/pdf", "pdf", PDF_JS],
      ["proofOfIncome", "image/gif", "gif", GIF_JS],
    ] as const) {
      const url = docs[kind].url as string;
      const mine = await fetchFile(url, owner.token);
      assert.equal(mine.status, 200);
      assert.equal(mine.headers.get("content-type"), mime);
      assert.equal(mine.headers.get("content-disposition"), `attachment; filename="${kind}.${ext}"`, "the client's name is never echoed into a header");
      assert.equal(mine.headers.get("x-content-type-options"), "nosniff");
      assert.equal(mine.headers.get("cache-control"), "private, no-store");
      assert.deepEqual(mine.body, content);
      assert.equal((await fetchFile(url, admin.token)).status, 200);
      assert.equal((await fetchFile(url, other.token)).status, 404, "another user is told it does not exist");
      assert.equal((await fetchFile(url)).status, 401);
    }
  });

  test("an SVG or an HTML page is never a KYC document", async () => {
    const user = await makeUser(api);
    for (const content of [SVG_SCRIPT, HTML]) {
      const answer = await kyc(user.token, [{ field: "idDocument", content, name: "id.png", type: "image/png" }]);
      assert.equal(answer.status, 400);
      assert.equal(answer.body.message, "Documents must be images or PDF files");
    }
  });
});

describe("hostile file names", () => {
  const marker = `lm-sec-${randomUUID().slice(0, 8)}`;
  const NAMES = [
    `../../${marker}.png`,
    `..\\..\\${marker}.png`,
    `/tmp/${marker}.png`,
    `C:\\Windows\\${marker}.png`,
    `....//....//${marker}.png`,
    `%2e%2e%2f${marker}.png`,
    `${"x".repeat(4000)}.png`,
    ".htaccess",
  ];

  test("never become paths: every stored file has a generated name inside its own folder", async () => {
    const user = await makeUser(api);
    for (const name of NAMES) {
      const picture = await avatar(user.token, { content: PNG, name, type: "image/png" });
      assert.equal(picture.status, 200, `${name.slice(0, 40)}: ${picture.body.message}`);
      assert.match(new URL(picture.body.data.profilePicture).pathname, new RegExp(`^/api/uploads/avatars/${UUID}\\.png$`));
      const document = await kyc(user.token, [{ field: "idDocument", content: PNG, name, type: "image/png" }]);
      assert.equal(document.status, 200, `${name.slice(0, 40)}: ${document.body.message}`);
      const shown = document.body.data.kycDocuments.idDocument;
      assert.match(shown.url, new RegExp(`^/api/users/kyc/documents/${UUID}$`));
      assert.ok(shown.originalName === null || (shown.originalName.length <= 255 && !shown.originalName.includes("\u0000")), "the name is kept for display only, cleaned and cut");
    }
    // A NUL in the part header is a malformed part, and a bare ".." is no file name at all: both refused whole.
    for (const name of [`${marker}\u0000.png.php`, ".."]) {
      assert.equal((await avatar(user.token, { content: PNG, name, type: "image/png" })).status, 400, JSON.stringify(name));
      assert.equal((await kyc(user.token, [{ field: "idDocument", content: PNG, name, type: "image/png" }])).status, 400, JSON.stringify(name));
    }
    const files = stored();
    assert.deepEqual(
      files.filter((f) => !ONLY_GENERATED.test(f)),
      [],
    );
    assert.ok(
      files.some((f) => f.startsWith(`kyc/${user.id}/`)),
      "KYC files live in the owner's folder",
    );
    // Nothing was written beside or above the data folder either.
    for (const dir of [dirname(api.config.dataDir), dirname(dirname(api.config.dataDir))]) {
      assert.deepEqual(
        readdirSync(dir).filter((name) => name.includes(marker)),
        [],
        dir,
      );
    }
  });

  test("the avatar folder serves nothing but its own files: no listing, no dotfiles, no way up to KYC documents", async () => {
    const user = await makeUser(api);
    const uploaded = await kyc(user.token, [{ field: "idDocument", content: PDF_JS, name: "id.pdf" }]);
    assert.equal(uploaded.status, 200);
    const kycFile = stored().find((f) => f.startsWith(`kyc/${user.id}/`))!;
    const own = new URL((await avatar(user.token, { content: PNG, name: "me.png" })).body.data.profilePicture).pathname;
    assert.equal((await rawGet(own)).status, 200, "the same request shape does reach the avatar folder");
    const escapes = [
      "/api/uploads/avatars/",
      "/api/uploads/avatars/.htaccess",
      `/api/uploads/avatars/..%2f..%2f${kycFile.replaceAll("/", "%2f")}`,
      `/api/uploads/avatars/%2e%2e/%2e%2e/${kycFile}`,
      `/api/uploads/avatars/../../${kycFile}`,
      `/api/uploads/avatars/..%5c..%5c${kycFile.replaceAll("/", "%5c")}`,
      "/api/uploads/avatars/%00.png",
      "/api/uploads/avatars/..%2f..%2f..%2fetc%2fpasswd",
    ];
    for (const path of escapes) {
      const answer = await rawGet(path);
      assert.notEqual(answer.status, 200, path);
      assert.ok(answer.status < 500, `${path}: ${answer.status}`);
      assert.ok(!answer.body.includes(PDF_JS), path);
    }
  });
});

describe("oversized and wrong bodies", () => {
  test("an avatar of 5 MB or more is refused with 413 and the spec's message, and nothing is stored", async () => {
    const user = await makeUser(api);
    const before = stored();
    const answer = await avatar(user.token, { content: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), name: "big.png", type: "image/png" });
    assert.equal(answer.status, 413);
    assert.equal(answer.body.message, "File size must be less than 5MB");
    assert.deepEqual(stored(), before);
  });

  test("a KYC document over 10 MB is refused with 413 and the spec's message, and nothing is stored", async () => {
    const user = await makeUser(api);
    const before = stored();
    const answer = await kyc(user.token, [
      { field: "idDocument", content: PNG, name: "ok.png" },
      { field: "proofOfAddress", content: Buffer.concat([PDF_JS, Buffer.alloc(10 * 1024 * 1024)]), name: "big.pdf" },
    ]);
    assert.equal(answer.status, 413);
    assert.equal(answer.body.message, "Each document must be 10MB or smaller");
    assert.deepEqual(stored(), before, "the smaller file of the same upload is not kept either");
    assert.equal((await api.call("GET", "/users/kyc/status", { token: user.token })).body.data.status, "none");
  });

  test("a text field of megabytes is a 400", async () => {
    const user = await makeUser(api);
    const answer = await kyc(user.token, [{ field: "idDocument", content: PNG, name: "id.png" }], "x".repeat(2 * 1024 * 1024));
    assert.equal(answer.status, 400);
  });

  test("the bytes decide the type: a PNG sent as a PDF is a PNG, a PDF sent as a PNG is a PDF", async () => {
    const user = await makeUser(api);
    const picture = await avatar(user.token, { content: PNG, name: "doc.pdf", type: "application/pdf" });
    assert.equal(picture.status, 200);
    assert.match(picture.body.data.profilePicture, /\.png$/);
    const document = await kyc(user.token, [{ field: "idDocument", content: PDF_JS, name: "id.png", type: "image/png" }]);
    assert.equal(document.body.data.kycDocuments.idDocument.mimeType, "application/pdf");
  });

  test("JSON, a missing boundary or a form without the file is a 400 on both routes", async () => {
    const user = await makeUser(api);
    for (const path of ["/users/profile/upload-picture", "/users/kyc/upload"]) {
      const json = await fetch(`${api.url}/api${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
        body: JSON.stringify({ profilePicture: PNG.toString("base64") }),
      });
      assert.equal(json.status, 400, path);
      const noBoundary = await fetch(`${api.url}/api${path}`, { method: "POST", headers: { authorization: `Bearer ${user.token}`, "content-type": "multipart/form-data" }, body: "--x\r\n\r\n" });
      assert.equal(noBoundary.status, 400, path);
      assert.equal((await post(path, user.token, [], { idDocumentType: "passport" })).status, 400, path);
    }
  });
});

describe("many files", () => {
  test("two avatars in one request, a KYC field twice, an unknown field or dozens of parts are refused and nothing is stored", async () => {
    const user = await makeUser(api);
    const before = stored();
    const png = (field: string): Part => ({ field, content: PNG, name: "x.png", type: "image/png" });
    assert.equal((await post("/users/profile/upload-picture", user.token, [png("profilePicture"), png("profilePicture")])).status, 400);
    assert.equal((await kyc(user.token, [png("idDocument"), png("idDocument")])).status, 400);
    assert.equal((await kyc(user.token, [png("idDocument"), png("passportScan")])).status, 400);
    assert.equal(
      (
        await kyc(
          user.token,
          Array.from({ length: 40 }, () => png("proofOfIncome")),
        )
      ).status,
      400,
    );
    const fields = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, "x"]));
    assert.equal((await post("/users/profile/upload-picture", user.token, [png("profilePicture")], fields)).status, 400);
    assert.deepEqual(stored(), before);
  });
});
