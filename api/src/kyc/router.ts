import { Router, type RequestHandler, type Response } from "express";
import multer from "multer";
import { KYC_FILE_FIELDS, KYC_MESSAGES, MAX_KYC_FILE_BYTES, kycUploadFieldsSchema } from "#domain/schemas/kyc";
import type { WireKycStatus } from "#domain/wire/kyc";
import { ok } from "../http/envelope";
import { AppError, badRequest, notFound } from "../http/errors";
import { isMalformedUpload } from "../http/uploads";
import { currentUser, requireAuth } from "../http/auth";
import { rateLimit, type RateLimitRule } from "../http/rateLimit";
import type { KeyValueStore } from "../kv/store";
import type { TokenService } from "../auth/tokens";
import type { UsersRepository } from "../users/repository";
import { toWireUser } from "../users/wire";
import { KYC_MESSAGES as M } from "#domain/schemas/kyc";
import { KYC_ANSWERS, type KycService, type UploadedFile } from "./service";
import { createViewTickets, VIEW_TICKET_TTL_MS } from "./viewTickets";

/**
 * The document page's own policy: it may show itself (the PDF viewer) inside the app's frame and nothing else,
 * loads nothing and runs nothing. The app's policy stays as it is (no blob: frames, no plugins).
 */
const DOCUMENT_CSP = "default-src 'none'; object-src 'self'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

// Memory storage: each file is judged by its bytes before anything touches the disk.
const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_KYC_FILE_BYTES, files: KYC_FILE_FIELDS.length, fields: 10, parts: 13 },
});
const fields = upload.fields(KYC_FILE_FIELDS.map((name) => ({ name, maxCount: 1 })));

/** multer's errors as the KYC messages: a file too large (413), an unknown field, a body that is not multipart. */
const kycFiles: RequestHandler = (req, res, next) => {
  fields(req, res, (error?: unknown) => {
    if (!error) return next();
    const code = (error as { code?: string }).code;
    if (code === "LIMIT_FILE_SIZE") return next(new AppError(413, KYC_MESSAGES.fileSize));
    if (code === "LIMIT_UNEXPECTED_FILE") return next(badRequest("Unexpected file field: use idDocument, proofOfAddress or proofOfIncome"));
    next(isMalformedUpload(error) ? badRequest(KYC_MESSAGES.noDocuments) : error);
  });
};

export function createKycRouter(deps: { service: KycService; users: UsersRepository; tokens: TokenService; kv: KeyValueStore; uploadLimit: RateLimitRule; appOrigin: string }): Router {
  const { service, users, tokens, appOrigin } = deps;
  const router = Router();
  const tickets = createViewTickets(deps.kv);

  // A preview frame: the ticket stands in for the bearer token; the same owner-or-admin rule as the download.
  router.get("/documents/:documentId/view", async (req, res) => {
    const documentId = String(req.params.documentId);
    const userId = await tickets.userFor(req.query.ticket, documentId);
    const viewer = userId ? await users.findById(userId) : null;
    if (!viewer) throw notFound(KYC_ANSWERS.documentNotFound);
    const { doc, content } = await service.download(viewer, documentId);
    documentHeaders(res, doc, content, "inline");
    res.setHeader("Content-Security-Policy", DOCUMENT_CSP);
    res.end(content);
  });

  router.use(requireAuth(tokens, (id) => users.findById(id)));

  router.get("/status", async (req, res) => {
    const user = currentUser(req);
    const kyc = await service.kycOf(user);
    const answer: WireKycStatus = { status: kyc.status, kycStatus: kyc.status, kyc, kycDocuments: kyc.documents };
    ok(res, answer);
  });

  router.post("/upload", rateLimit(deps.kv, { name: "kyc-upload", ...deps.uploadLimit }), kycFiles, async (req, res) => {
    const byField = (req.files ?? {}) as Record<string, UploadedFile[]>;
    const files = Object.values(byField).flat();
    if (!files.length) throw badRequest(M.noDocuments);
    const { idDocumentType } = kycUploadFieldsSchema.parse(req.body ?? {});
    const { user, kyc } = await service.upload(currentUser(req), idDocumentType, files);
    ok(res, { ...toWireUser(user, appOrigin), kyc: { ...kyc }, kycDocuments: kyc.documents }, M.submitted);
  });

  // The only way to a stored document: its owner or an admin, never a public path.
  router.get("/documents/:documentId", async (req, res) => {
    const { doc, content } = await service.download(currentUser(req), String(req.params.documentId));
    documentHeaders(res, doc, content, "attachment");
    res.end(content);
  });

  // A ticket for the preview frame, to whoever may download the document (checked by the download itself).
  router.post("/documents/:documentId/view", async (req, res) => {
    const documentId = String(req.params.documentId);
    await service.download(currentUser(req), documentId);
    const ticket = await tickets.issue(documentId, currentUser(req).id);
    ok(res, { url: `/api/users/kyc/documents/${encodeURIComponent(documentId)}/view?ticket=${ticket}`, expiresInSeconds: VIEW_TICKET_TTL_MS / 1000 });
  });

  return router;
}

/** A stored document's headers: never cached, never sniffed into another type. */
function documentHeaders(res: Response, doc: { kind: string; fileName: string; mimeType: string }, content: Buffer, disposition: "inline" | "attachment") {
  res.setHeader("Content-Type", doc.mimeType);
  res.setHeader("Content-Length", String(content.length));
  res.setHeader("Content-Disposition", `${disposition}; filename="${doc.kind}.${doc.fileName.split(".").pop()}"`);
  res.setHeader("Cache-Control", "private, no-store");
  res.setHeader("X-Content-Type-Options", "nosniff");
}
