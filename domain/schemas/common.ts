import { z } from "zod";
import { SHARED_MESSAGES } from "./sharedMessages";

/** Form fields often arrive as "" when left blank: treat that as not given. */
export function optionalText<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), schema.optional());
}

export const ethAddress = z
  .string({ error: SHARED_MESSAGES.walletAddress })
  .trim()
  .regex(/^0x[0-9a-fA-F]{40}$/, SHARED_MESSAGES.walletAddress);
