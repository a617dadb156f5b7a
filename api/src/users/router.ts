import express, { Router, type RequestHandler } from "express";
import multer from "multer";
import { MAX_PICTURE_BYTES, PROFILE_MESSAGES, profileUpdateSchema } from "#domain/schemas/users";
import { ok } from "../http/envelope";
import { AppError, badRequest } from "../http/errors";
import { isMalformedUpload } from "../http/uploads";
import { currentUser, requireAuth } from "../http/auth";
import { validate } from "../http/validate";
import { rateLimit, type RateLimitRule } from "../http/rateLimit";
import type { KeyValueStore } from "../kv/store";
import type { TokenService } from "../auth/tokens";
import type { UsersRepository } from "./repository";
import { PROFILE_ANSWERS, type UsersService } from "./service";
import { toWireUser } from "./wire";

interface UsersRouterDeps {
  service: UsersService;
  users: UsersRepository;
  tokens: TokenService;
  kv: KeyValueStore;
  uploadLimit: RateLimitRule;
  appOrigin: string;
}

// "Under 5 MB": a file of exactly 5 MB is already refused.
const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_PICTURE_BYTES - 1, files: 1, fields: 5, parts: 6 } });

/** multer's own errors become the spec's messages: an oversized file is a 413, any other malformed upload a 400. */
const pictureField: RequestHandler = (req, res, next) => {
  upload.single("profilePicture")(req, res, (error?: unknown) => {
    if (!error) return next();
    if (error instanceof multer.MulterError && error.code === "LIMIT_FILE_SIZE") return next(new AppError(413, PROFILE_MESSAGES.imageSize));
    next(isMalformedUpload(error) ? badRequest(PROFILE_MESSAGES.image) : error);
  });
};

export function createUsersRouter(deps: UsersRouterDeps): Router {
  const { service, users, tokens, appOrigin } = deps;
  const router = Router();
  router.use(requireAuth(tokens, (id) => users.findById(id)));

  router.get("/profile", (req, res) => {
    ok(res, toWireUser(currentUser(req), appOrigin));
  });

  router.put("/profile", validate(profileUpdateSchema), async (req, res) => {
    const { user, message } = await service.updateProfile(currentUser(req), req.body);
    ok(res, toWireUser(user, appOrigin), message);
  });

  router.post("/profile/upload-picture", rateLimit(deps.kv, { name: "upload", ...deps.uploadLimit }), pictureField, async (req, res) => {
    if (!req.file) throw badRequest(PROFILE_MESSAGES.image);
    const user = await service.replacePicture(currentUser(req), req.file.buffer);
    const wire = toWireUser(user, appOrigin);
    ok(res, { profilePicture: wire.profilePicture, user: wire }, PROFILE_ANSWERS.pictureUpdated);
  });

  return router;
}

/** Serves the generated avatar files only: no listing, no dotfiles, nothing outside the folder. */
export function avatarFiles(avatarDir: string): RequestHandler {
  return express.static(avatarDir, { dotfiles: "deny", index: false, redirect: false, immutable: true, maxAge: "30d" });
}
