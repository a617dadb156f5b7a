import { z } from "zod";
import { addressSchema } from "./auth";
import { SHARED_MESSAGES } from "./sharedMessages";

export const PROFILE_MESSAGES = {
  names: "First name and last name are required",
  phone: SHARED_MESSAGES.phone,
  walletOnlyBySignature: "A wallet can only be linked by signing in with it",
  emailImmutable: "Email cannot be changed",
  image: "Please select a valid image file",
  imageSize: "File size must be less than 5MB",
  remindersMuted: "Reminders must be muted (true) or not (false)",
} as const;

export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
export const PICTURE_MIME_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;

const name = z.string({ error: PROFILE_MESSAGES.names }).trim().min(1, PROFILE_MESSAGES.names).max(100, PROFILE_MESSAGES.names);
/** "" or null clears the phone; absent leaves it as it is. */
const phone = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? null : value),
  z.string({ error: PROFILE_MESSAGES.phone }).trim().min(10, PROFILE_MESSAGES.phone).max(30, PROFILE_MESSAGES.phone).nullable().optional(),
);

/** Clearing only: "" or null disconnects the wallet; a value never links one. */
const walletClear = z.union([z.literal(""), z.null()], { error: PROFILE_MESSAGES.walletOnlyBySignature });

/**
 * PUT /users/profile: the profile fields, or only walletAddress (the disconnect action), or only remindersMuted
 * (the reminders switch, saved on its own).
 * Address is a string on the profile screen and an object at registration: both are accepted.
 */
export const profileUpdateSchema = z
  .object({
    firstName: name.optional(),
    lastName: name.optional(),
    phoneNumber: phone,
    phone,
    address: z
      .union([z.string().trim().max(500), addressSchema])
      .nullable()
      .optional(),
    walletAddress: walletClear.optional(),
    email: z.string().optional(),
    remindersMuted: z.boolean({ error: PROFILE_MESSAGES.remindersMuted }).optional(),
  })
  .superRefine((body, ctx) => {
    const noProfileFields = body.firstName === undefined && body.lastName === undefined && body.phoneNumber === undefined && body.phone === undefined && body.address === undefined;
    // A switch (the wallet's disconnect, the reminders' mute) is saved alone, without the names.
    if (noProfileFields && (body.walletAddress !== undefined || body.remindersMuted !== undefined)) return;
    if (body.firstName === undefined || body.lastName === undefined) {
      ctx.addIssue({ code: "custom", message: PROFILE_MESSAGES.names, path: [body.firstName === undefined ? "firstName" : "lastName"] });
    }
  });
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** The profile form: names required after trimming. */
export const profileFormSchema = z.object({
  firstName: name,
  lastName: name,
  phoneNumber: phone,
  address: z.string().trim().max(500).optional(),
});

/** Client-side picture check before upload; the server checks the content itself. */
export function checkPicture(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith("image/")) return PROFILE_MESSAGES.image;
  if (file.size >= MAX_PICTURE_BYTES) return PROFILE_MESSAGES.imageSize;
  return null;
}
