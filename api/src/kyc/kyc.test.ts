import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startTestApi, type TestApi } from "../testing/harness";
import { makeUser, notificationsOf, type TestUser } from "#testing/loanStack";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");

let api: TestApi;
let admin: TestUser;

before(async () => {
  api = await startTestApi();
  admin = await makeUser(api, { admin: true });
});
after(async () => {
  await api?.close();
});

async function upload(token: string | undefined, files: Record<string, { content: Buffer; name: string; type?: string }>, idDocumentType: string | null = "passport") {
  const form = new FormData();
  if (idDocumentType !== null) form.append("idDocumentType", idDocumentType);
  for (const [field, file] of Object.entries(files)) form.append(field, new Blob([new Uint8Array(file.content)], { type: file.type ?? "application/octet-stream" }), file.name);
  const response = await fetch(`${api.url}/api/users/kyc/upload`, { method: "POST", body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, body: (await response.json()) as any };
}

async function download(token: string, url: string) {
  const response = await fetch(`${api.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get("content-type"), body: Buffer.from(await response.arrayBuffer()) };
}

describe("KYC upload", () => {
  test("stores an image and a PDF judged by their bytes, moves the user to pending and tells the admins", async () => {
    const user = await makeUser(api);
    const answer = await upload(user.token, { idDocument: { content: PNG, name: "id.png" }, proofOfAddress: { content: PDF, name: "bill.pdf" } });
    assert.equal(answer.status, 200, answer.body.message);
    assert.equal(answer.body.message, "KYC documents submitted successfully");
    assert.equal(answer.body.data.kycStatus, "pending");
    assert.equal(answer.body.data.kycDocuments.idDocument.mimeType, "image/png");
    assert.equal(answer.body.data.kycDocuments.proofOfAddress.mimeType, "application/pdf");
    assert.equal(answer.body.data.kycDocuments.proofOfIncome, null);
    // Private storage under DATA_DIR/kyc/<userId>/ with generated names, never the uploaded ones.
    const stored = readdirSync(join(api.config.dataDir, "kyc", user.id));
    assert.equal(stored.length, 2);
    assert.ok(stored.every((name) => /^[0-9a-f-]{36}\.(png|pdf)$/.test(name)));
    assert.ok(!existsSync(join(api.config.dataDir, "uploads", "kyc")));
    const adminRows = await notificationsOf(api, admin.id);
    assert.ok(adminRows.some((n) => n.type === "kyc_submission" && n.message.includes(user.row.firstName)));
    const status = await api.call("GET", "/users/kyc/status", { token: user.token });
    assert.equal(status.body.data.status, "pending");
    assert.equal(status.body.data.kyc.idDocumentType, "passport");
  });

  test("needs at least one document", async () => {
    const user = await makeUser(api);
    const answer = await upload(user.token, {});
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, "Please upload at least one document");
  });

  test("refuses a file that is not an image or a PDF, whatever its name and type claim", async () => {
    const user = await makeUser(api);
    const answer = await upload(user.token, { idDocument: { content: Buffer.from("MZ not really a png"), name: "id.png", type: "image/png" } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, "Documents must be images or PDF files");
    const status = await api.call("GET", "/users/kyc/status", { token: user.token });
    assert.equal(status.body.data.status, "none");
  });

  test("refuses a file over 10 MB with 413", async () => {
    const user = await makeUser(api);
    const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]);
    const answer = await upload(user.token, { idDocument: { content: big, name: "big.pdf" } });
    assert.equal(answer.status, 413);
    assert.equal(answer.body.message, "Each document must be 10MB or smaller");
  });

  test("takes a document of exactly 10 MB and refuses one byte more with 413", async () => {
    const user = await makeUser(api);
    const exactly = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024 - PDF.length)]);
    assert.equal(exactly.length, 10 * 1024 * 1024);
    const over = await upload(user.token, { idDocument: { content: Buffer.concat([exactly, Buffer.alloc(1)]), name: "over.pdf" } });
    assert.equal(over.status, 413);
    assert.equal(over.body.message, "Each document must be 10MB or smaller");
    const answer = await upload(user.token, { idDocument: { content: exactly, name: "exactly.pdf" } });
    assert.equal(answer.status, 200, answer.body.message);
    assert.equal(answer.body.data.kycDocuments.idDocument.size, 10 * 1024 * 1024);
  });

  test("needs a known ID document type", async () => {
    const user = await makeUser(api);
    const answer = await upload(user.token, { idDocument: { content: PNG, name: "id.png" } }, "library_card");
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, "Please select a valid ID document type");
  });

  test("needs a signed-in user", async () => {
    const answer = await upload(undefined, { idDocument: { content: PNG, name: "id.png" } });
    assert.equal(answer.status, 401);
  });
});

describe("KYC documents", () => {
  test("are served to their owner and to admins, and to nobody else", async () => {
    const owner = await makeUser(api);
    const other = await makeUser(api);
    const answer = await upload(owner.token, { idDocument: { content: PNG, name: "id.png" } });
    const url = answer.body.data.kycDocuments.idDocument.url as string;
    const mine = await download(owner.token, url);
    assert.equal(mine.status, 200);
    assert.equal(mine.type, "image/png");
    assert.deepEqual(mine.body, PNG);
    assert.equal((await download(admin.token, url)).status, 200);
    const stranger = await download(other.token, url);
    assert.equal(stranger.status, 404);
    const anonymous = await fetch(`${api.url}${url}`);
    assert.equal(anonymous.status, 401);
  });

  test("a user's KYC status shows their own submission and documents only, though another user submitted later", async () => {
    const first = await makeUser(api);
    const second = await makeUser(api);
    const own = (await upload(first.token, { idDocument: { content: PNG, name: "id.png" }, proofOfAddress: { content: PDF, name: "bill.pdf" } }, "passport")).body.data.kycDocuments;
    const rejected = await api.call("PUT", `/admin/users/${first.id}/kyc`, { token: admin.token, body: { action: "reject", rejectionReason: "The first user's bill is too old" } });
    assert.equal(rejected.status, 200, rejected.body.message);
    const later = await upload(second.token, { proofOfIncome: { content: PDF, name: "pay.pdf" } }, "national_id");
    assert.equal(later.status, 200, later.body.message);
    const theirs = later.body.data.kycDocuments;

    const mine = (await api.call("GET", "/users/kyc/status", { token: first.token })).body.data;
    assert.equal(mine.status, "rejected");
    assert.equal(mine.kyc.idDocumentType, "passport");
    assert.equal(mine.kyc.rejectionReason, "The first user's bill is too old");
    assert.deepEqual([mine.kycDocuments.idDocument?._id, mine.kycDocuments.proofOfAddress?._id, mine.kycDocuments.proofOfIncome], [own.idDocument._id, own.proofOfAddress._id, null]);

    const other = (await api.call("GET", "/users/kyc/status", { token: second.token })).body.data;
    assert.equal(other.status, "pending");
    assert.equal(other.kyc.idDocumentType, "national_id");
    assert.equal(other.kyc.rejectionReason, null);
    assert.deepEqual([other.kycDocuments.idDocument, other.kycDocuments.proofOfAddress, other.kycDocuments.proofOfIncome?._id], [null, null, theirs.proofOfIncome._id]);
    assert.ok(!JSON.stringify(other).includes(own.idDocument._id) && !JSON.stringify(other).includes("too old"));
  });

  test("a document id that is no UUID is 404 'Document not found' to its download, its ticket and its frame, never a database error", async () => {
    const owner = await makeUser(api);
    for (const id of ["not-a-uuid", "0123456789abcdef0123456789abcdef0123", "1' or '1'='1"]) {
      const path = `/users/kyc/documents/${encodeURIComponent(id)}`;
      const downloaded = await api.call("GET", path, { token: admin.token });
      assert.equal(downloaded.status, 404, id);
      assert.equal(downloaded.body.message, "Document not found");
      const ticket = await api.call("POST", `${path}/view`, { token: owner.token });
      assert.equal(ticket.status, 404, id);
      assert.equal(ticket.body.message, "Document not found");
      assert.equal((await api.call("GET", `${path}/view?ticket=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`)).status, 404, id);
    }
  });

  test("preview in a frame by a short-lived ticket, inline, under a policy of their own", async () => {
    const owner = await makeUser(api);
    const other = await makeUser(api);
    const answer = await upload(owner.token, { idDocument: { content: PNG, name: "id.png" }, proofOfAddress: { content: PDF, name: "bill.pdf" } });
    const docs = answer.body.data.kycDocuments;
    const ticketFor = (token: string, id: string) => api.call("POST", `/users/kyc/documents/${id}/view`, { token });
    assert.equal((await ticketFor(other.token, docs.proofOfAddress._id)).status, 404);
    const issued = await ticketFor(admin.token, docs.proofOfAddress._id);
    assert.equal(issued.status, 200, issued.body.message);
    const frameUrl = issued.body.data.url as string;
    assert.match(frameUrl, /^\/api\/users\/kyc\/documents\/[^/]+\/view\?ticket=[A-Za-z0-9_-]{32}$/);
    assert.equal(issued.body.data.expiresInSeconds, 300, "a ticket lives five minutes");

    // The frame sends no token: the ticket opens this document, inline, and nothing else.
    const frame = await fetch(`${api.url}${frameUrl}`);
    assert.equal(frame.status, 200);
    assert.equal(frame.headers.get("content-type"), "application/pdf");
    assert.match(frame.headers.get("content-disposition") ?? "", /^inline;/);
    const policy = frame.headers.get("content-security-policy") ?? "";
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /frame-ancestors 'self'/);
    assert.deepEqual(Buffer.from(await frame.arrayBuffer()), PDF);
    const otherDocument = frameUrl.replace(docs.proofOfAddress._id, docs.idDocument._id);
    assert.equal((await fetch(`${api.url}${otherDocument}`)).status, 404);
    assert.equal((await fetch(`${api.url}${frameUrl.replace(/ticket=.*/, "ticket=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")}`)).status, 404);

    // The app's own pages keep their policy: no blob: frames, no plugins.
    const page = await fetch(`${api.url}/api/health`);
    const appPolicy = page.headers.get("content-security-policy") ?? "";
    assert.doesNotMatch(appPolicy, /blob:[^;]*;?\s*$|frame-src[^;]*blob:/);
    assert.match(appPolicy, /object-src 'none'/);
  });
});

describe("KYC decisions", () => {
  test("an approval makes the user verified and notifies them with the spec's text", async () => {
    const user = await makeUser(api);
    await upload(user.token, { idDocument: { content: PNG, name: "id.png" } });
    const answer = await api.call("PUT", `/admin/users/${user.id}/kyc`, { token: admin.token, body: { action: "approve", notes: "Looks right" } });
    assert.equal(answer.status, 200, answer.body.message);
    assert.equal(answer.body.data.kycStatus, "approved");
    const rows = await notificationsOf(api, user.id);
    assert.ok(rows.some((n) => n.message === "KYC Approved! You can now apply for loans."));
    const again = await upload(user.token, { idDocument: { content: PNG, name: "id.png" } });
    assert.equal(again.status, 400);
    assert.equal(again.body.message, "Your KYC is already approved");
  });

  test("a rejection carries its reason, and the user can resubmit", async () => {
    const user = await makeUser(api);
    await upload(user.token, { idDocument: { content: PNG, name: "id.png" } });
    const answer = await api.call("PUT", `/admin/users/${user.id}/kyc`, { token: admin.token, body: { action: "reject", notes: "The photo is blurred" } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.kycStatus, "rejected");
    const status = await api.call("GET", "/users/kyc/status", { token: user.token });
    assert.equal(status.body.data.kyc.rejectionReason, "The photo is blurred");
    const rows = await notificationsOf(api, user.id);
    assert.ok(rows.some((n) => n.message === "The photo is blurred"));
    const resubmitted = await upload(user.token, { proofOfIncome: { content: PDF, name: "pay.pdf" } }, "national_id");
    assert.equal(resubmitted.status, 200);
    assert.equal(resubmitted.body.data.kycStatus, "pending");
  });

  test("a rejection without a reason is refused on its field, as a loan's is, and the submission stays pending", async () => {
    const user = await makeUser(api);
    await upload(user.token, { idDocument: { content: PNG, name: "id.png" } });
    for (const body of [{ action: "reject" }, { action: "reject", notes: "   ", rejectionReason: "" }]) {
      const answer = await api.call("PUT", `/admin/users/${user.id}/kyc`, { token: admin.token, body });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.message, "Please provide a rejection reason");
      assert.deepEqual(
        answer.body.data.errors.map((e: { path: string }) => e.path),
        ["rejectionReason"],
      );
    }
    const status = await api.call("GET", "/users/kyc/status", { token: user.token });
    assert.equal(status.body.data.status, "pending");
    const given = await api.call("PUT", `/admin/users/${user.id}/kyc`, { token: admin.token, body: { action: "reject", rejectionReason: "The ID has expired", notes: "Checked twice" } });
    assert.equal(given.status, 200);
    const after = await api.call("GET", "/users/kyc/status", { token: user.token });
    assert.equal(after.body.data.kyc.rejectionReason, "The ID has expired");
    assert.equal(after.body.data.kyc.notes, "Checked twice");
    assert.ok((await notificationsOf(api, user.id)).some((n) => n.message === "The ID has expired"));
  });

  test("needs a known action and a pending submission", async () => {
    const user = await makeUser(api);
    const bad = await api.call("PUT", `/admin/users/${user.id}/kyc`, { token: admin.token, body: { action: "maybe" } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.message, "Action must be approve or reject");
    const nothing = await api.call("PUT", `/admin/users/${user.id}/kyc`, { token: admin.token, body: { action: "approve" } });
    assert.equal(nothing.status, 409);
    assert.equal(nothing.body.message, "Only a pending KYC submission can be decided");
  });

  test("a decision for a user who does not exist is 404 'User not found' and changes nothing", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const answer = await api.call("PUT", `/admin/users/${id}/kyc`, { token: admin.token, body: { action: "approve" } });
      assert.equal(answer.status, 404, id);
      assert.equal(answer.body.message, "User not found");
    }
  });

  test("are for admins only", async () => {
    const user = await makeUser(api);
    const other = await makeUser(api);
    const answer = await api.call("PUT", `/admin/users/${other.id}/kyc`, { token: user.token, body: { action: "approve" } });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.message, "Access denied");
  });
});

describe("admin users list", () => {
  test("searches by name or email and filters by KYC status, pending first", async () => {
    const pending = await makeUser(api, { firstName: "Zelda" });
    await upload(pending.token, { idDocument: { content: PNG, name: "id.png" } });
    const byName = await api.call("GET", "/admin/users?search=zelda", { token: admin.token });
    assert.equal(byName.status, 200);
    assert.ok(byName.body.data.users.some((u: any) => u._id === pending.id));
    assert.ok(byName.body.data.users.every((u: any) => u.firstName === "Zelda"));
    const byEmail = await api.call("GET", `/admin/users?search=${encodeURIComponent(pending.email)}`, { token: admin.token });
    assert.equal(byEmail.body.data.users.length, 1);
    const filtered = await api.call("GET", "/admin/users?kycStatus=pending&limit=100", { token: admin.token });
    assert.ok(filtered.body.data.users.length >= 1);
    assert.ok(filtered.body.data.users.every((u: any) => u.kycStatus === "pending"));
    assert.equal(typeof filtered.body.data.pagination.totalPages, "number");
    const detail = await api.call("GET", `/admin/users/${pending.id}`, { token: admin.token });
    assert.equal(detail.body.data.kyc.documents.idDocument.mimeType, "image/png");
    assert.ok(!("passwordHash" in detail.body.data));
  });
});
