import { z } from "zod";
import { optionalText } from "./common";
import { SHARED_MESSAGES } from "./sharedMessages";

export const CONTACT_SUBJECTS = [
  "General Inquiry",
  "Technical Support",
  "Loan Application Help",
  "NFT Minting Issues",
  "Account Issues",
  "Partnership Inquiry",
  "Bug Report",
  "Feature Request",
  "Other",
] as const;

export const CONTACT_MESSAGES = {
  name: "Name is required",
  email: SHARED_MESSAGES.emailAddress,
  phone: SHARED_MESSAGES.phone,
  subject: "Please select a subject",
  message: "Message is required",
  messageTooLong: "Message must be at most 5000 characters",
  success: "Message sent successfully! We'll get back to you soon.",
} as const;

export const contactRequestSchema = z.object({
  name: z.string({ error: CONTACT_MESSAGES.name }).trim().min(1, CONTACT_MESSAGES.name).max(100, CONTACT_MESSAGES.name),
  email: z.string({ error: CONTACT_MESSAGES.email }).trim().max(254, CONTACT_MESSAGES.email).email(CONTACT_MESSAGES.email),
  phone: optionalText(z.string().trim().max(30, CONTACT_MESSAGES.phone)),
  subject: z.enum(CONTACT_SUBJECTS, { error: CONTACT_MESSAGES.subject }),
  message: z.string({ error: CONTACT_MESSAGES.message }).trim().min(1, CONTACT_MESSAGES.message).max(5000, CONTACT_MESSAGES.messageTooLong),
});
export type ContactRequest = z.infer<typeof contactRequestSchema>;
