import { randomUUID } from "node:crypto";
import { mkdir, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileTypeFromBuffer } from "file-type";
import type { UserRow } from "#db/schema";
import { PICTURE_MIME_TYPES, PROFILE_MESSAGES, type ProfileUpdate } from "#domain/schemas/users";
import { badRequest } from "../http/errors";
import type { UsersRepository } from "./repository";

export const PROFILE_ANSWERS = {
  updated: "Profile updated successfully!",
  walletCleared: "Wallet disconnected successfully",
  pictureUpdated: "Profile picture updated successfully!",
  remindersMuted: "Servicing reminders muted",
  remindersOn: "Servicing reminders on",
  walletOnlyAccount: "This account signs in with its wallet, so the wallet cannot be disconnected",
} as const;

/** Names this service generates; anything else in the column is never used as a path. */
const GENERATED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|gif|webp)$/;

export function createUsersService(deps: { users: UsersRepository; avatarDir: string }) {
  const { users, avatarDir } = deps;
  return {
    async updateProfile(user: UserRow, input: ProfileUpdate): Promise<{ user: UserRow; message: string }> {
      if (input.email !== undefined && input.email.trim().toLowerCase() !== (user.email ?? "").toLowerCase()) {
        throw badRequest(PROFILE_MESSAGES.emailImmutable);
      }
      const changes: Partial<UserRow> = {};
      if (input.firstName !== undefined) changes.firstName = input.firstName;
      if (input.lastName !== undefined) changes.lastName = input.lastName;
      const phone = input.phoneNumber !== undefined ? input.phoneNumber : input.phone;
      if (phone !== undefined) changes.phone = phone;
      if (input.address !== undefined) changes.address = input.address;
      const clearsWallet = input.walletAddress !== undefined;
      if (clearsWallet) {
        if (!user.passwordHash && user.walletAddress) throw badRequest(PROFILE_ANSWERS.walletOnlyAccount);
        changes.walletAddress = null;
      }
      if (input.remindersMuted !== undefined) changes.remindersMuted = input.remindersMuted;
      const updated = (await users.update(user.id, changes)) ?? user;
      const onlyWallet = clearsWallet && input.firstName === undefined;
      const onlyReminders = input.remindersMuted !== undefined && !clearsWallet && input.firstName === undefined;
      const message = onlyWallet ? PROFILE_ANSWERS.walletCleared : onlyReminders ? (input.remindersMuted ? PROFILE_ANSWERS.remindersMuted : PROFILE_ANSWERS.remindersOn) : PROFILE_ANSWERS.updated;
      return { user: updated, message };
    },

    /** Stores an image checked by its bytes under a generated name, then drops the picture it replaces. */
    async replacePicture(user: UserRow, file: Buffer): Promise<UserRow> {
      const type = await fileTypeFromBuffer(file);
      if (!type || !(PICTURE_MIME_TYPES as readonly string[]).includes(type.mime)) throw badRequest(PROFILE_MESSAGES.image);
      const name = `${randomUUID()}.${type.ext === "jpeg" ? "jpg" : type.ext}`;
      await mkdir(avatarDir, { recursive: true });
      await writeFile(join(avatarDir, name), file, { flag: "wx", mode: 0o644 });
      const updated = (await users.update(user.id, { profilePicture: name })) ?? user;
      if (user.profilePicture && GENERATED_NAME.test(user.profilePicture)) {
        await unlink(join(avatarDir, user.profilePicture)).catch(() => {});
      }
      return updated;
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
