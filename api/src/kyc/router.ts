import { Router, type RequestHandler } from "express";
import multer from "multer";
import { KYC_FILE_FIELDS, KYC_MESSAGES, MAX_KYC_FILE_BYTES, kycUploadFieldsSchema } from "#domain/schemas/kyc";
import { ok } from "../http/envelope";
import { AppError, badRequest } from "../http/errors";
import { isMalformedUpload } from "../http/uploads";
import { currentUser, requireAuth } from "../http/auth";
import { rateLimit, type RateLimitRule } from "../http/rateLimit";
import type { KeyValueStore } from "../kv/store";
import type { TokenService } from "../auth/tokens";
import type { UsersRepository } from "../users/repository";
import { toWireUser } from "../users/wire";
import { KYC_MESSAGES as M } from "#domain/schemas/kyc";
import type { KycService, UploadedFile } from "./service";

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
  router.use(requireAuth(tokens, (id) => users.findById(id)));

  router.get("/status", async (req, res) => {
    const user = currentUser(req);
    const kyc = await service.kycOf(user);
    ok(res, { status: kyc.status, kycStatus: kyc.status, kyc, kycDocuments: kyc.documents });
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
    res.setHeader("Content-Type", doc.mimeType);
    res.setHeader("Content-Length", String(content.length));
    res.setHeader("Content-Disposition", `attachment; filename="${doc.kind}.${doc.fileName.split(".").pop()}"`);
    res.setHeader("Cache-Control", "private, no-store");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.end(content);
  });

  return router;
}
