import { z } from "zod";
import { ROLES } from "../statuses";
import { ethAddress, optionalText } from "./common";
import { SHARED_MESSAGES } from "./sharedMessages";

/** The access screens' messages, shared by the app's forms and the API. */
export const AUTH_MESSAGES = {
  loginEmail: "Please enter a valid email",
  password6: "Password must be at least 6 characters",
  userType: "Please select user type",
  firstName: "First name must be at least 2 characters",
  lastName: "Last name must be at least 2 characters",
  registerEmail: SHARED_MESSAGES.emailAddress,
  confirmPassword: "Please confirm your password",
  passwordsDontMatch: "Passwords don't match",
  phone: SHARED_MESSAGES.phone,
  terms: "You must agree to the terms and conditions",
  currentPassword: "Current password is required",
  password8: "Password must be at least 8 characters long",
  newPasswordsDontMatch: "New passwords do not match",
  role: "Please select user type",
  /** On the invite field, beside the 403 'Access denied': a missing or wrong operator's code. */
  adminInviteCode: "This admin invite code is not valid",
  /** On the role, when the operator set no ADMIN_INVITE_CODE (the app then offers no "Administrator"). */
  adminSignupOff: "Administrator sign-up is not open on this platform",
} as const;

const email = (message: string) => z.string({ error: message }).trim().max(254, message).email(message);

export const addressSchema = z.object({
  street: optionalText(z.string().trim().max(200)),
  city: optionalText(z.string().trim().max(100)),
  state: optionalText(z.string().trim().max(100)),
  zipCode: optionalText(z.string().trim().max(20)),
  country: z.string().trim().max(100).default("United States"),
});
export type Address = z.infer<typeof addressSchema>;

/** What the login screen sends: the role choice stays on the client. */
export const loginRequestSchema = z.object({
  email: email(AUTH_MESSAGES.loginEmail),
  password: z.string({ error: AUTH_MESSAGES.password6 }).min(6, AUTH_MESSAGES.password6).max(200, AUTH_MESSAGES.password6),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginFormSchema = loginRequestSchema.extend({
  userType: z.enum(ROLES, { error: AUTH_MESSAGES.userType }).default("user"),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

/** The registration payload on the wire; confirmation and terms are checked by the form only. */
export const registerRequestSchema = z.object({
  firstName: z.string({ error: AUTH_MESSAGES.firstName }).trim().min(2, AUTH_MESSAGES.firstName).max(100, AUTH_MESSAGES.firstName),
  lastName: z.string({ error: AUTH_MESSAGES.lastName }).trim().min(2, AUTH_MESSAGES.lastName).max(100, AUTH_MESSAGES.lastName),
  email: email(AUTH_MESSAGES.registerEmail),
  password: z.string({ error: AUTH_MESSAGES.password6 }).min(6, AUTH_MESSAGES.password6).max(200, AUTH_MESSAGES.password6),
  phone: optionalText(z.string({ error: AUTH_MESSAGES.phone }).trim().min(10, AUTH_MESSAGES.phone).max(30, AUTH_MESSAGES.phone)),
  role: z.enum(ROLES, { error: AUTH_MESSAGES.role }).default("user"),
  address: addressSchema.optional(),
  /** Only a hint that prefills the wallet-linking step: never verified, never unique. */
  walletAddress: optionalText(ethAddress),
  /** Needed for role admin; must equal the operator's ADMIN_INVITE_CODE. */
  adminInviteCode: optionalText(z.string().max(200)),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const registerFormSchema = registerRequestSchema
  .extend({
    confirmPassword: z.string({ error: AUTH_MESSAGES.confirmPassword }).min(6, AUTH_MESSAGES.confirmPassword),
    agreeToTerms: z.literal(true, { error: AUTH_MESSAGES.terms }),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDontMatch,
    path: ["confirmPassword"],
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

export const changePasswordRequestSchema = z
  .object({
    currentPassword: z.string({ error: AUTH_MESSAGES.currentPassword }).min(1, AUTH_MESSAGES.currentPassword),
    newPassword: z.string({ error: AUTH_MESSAGES.password8 }).min(8, AUTH_MESSAGES.password8).max(200, AUTH_MESSAGES.password8),
    /** Not sent by the spec's client; checked when present. */
    confirmPassword: z.string().optional(),
  })
  .refine((body) => body.confirmPassword === undefined || body.confirmPassword === body.newPassword, {
    message: AUTH_MESSAGES.newPasswordsDontMatch,
    path: ["confirmPassword"],
  });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const changePasswordFormSchema = z
  .object({
    currentPassword: z.string().min(1, AUTH_MESSAGES.currentPassword),
    newPassword: z.string().min(8, AUTH_MESSAGES.password8),
    confirmPassword: z.string(),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: AUTH_MESSAGES.newPasswordsDontMatch,
    path: ["confirmPassword"],
  });

/** Five checks; fewer than 3 Weak, 3 or 4 Medium, 5 Strong. */
export function passwordStrength(password: string): { score: number; label: "Weak" | "Medium" | "Strong" } {
  const score = [/.{8,}/, /[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z0-9]/].filter((check) => check.test(password)).length;
  return { score, label: score < 3 ? "Weak" : score < 5 ? "Medium" : "Strong" };
}

export const WALLET_MESSAGES = {
  address: SHARED_MESSAGES.walletAddress,
  signature: "A wallet signature is required",
  message: "The signed message is required",
  nonce: "The nonce is required",
} as const;

export const walletConnectRequestSchema = z.object({
  walletAddress: ethAddress,
});

export const walletVerifyRequestSchema = z.object({
  walletAddress: ethAddress,
  signature: z
    .string({ error: WALLET_MESSAGES.signature })
    .regex(/^0x[0-9a-fA-F]+$/, WALLET_MESSAGES.signature)
    .max(20_000, WALLET_MESSAGES.signature),
  message: z.string({ error: WALLET_MESSAGES.message }).min(1, WALLET_MESSAGES.message).max(4000, WALLET_MESSAGES.message),
  nonce: z.string({ error: WALLET_MESSAGES.nonce }).min(8, WALLET_MESSAGES.nonce).max(100, WALLET_MESSAGES.nonce),
});
export type WalletVerifyRequest = z.infer<typeof walletVerifyRequestSchema>;
