import { timingSafeEqual, createHash } from "node:crypto";
import type { AppConfig } from "../config/env";
import { AUTH_MESSAGES, type ChangePasswordRequest, type LoginRequest, type RegisterRequest } from "#domain/schemas/auth";
import { AppError, badRequest, conflict, MESSAGES } from "../http/errors";
import { uniqueViolation, type UsersRepository } from "../users/repository";
import type { UserRow } from "#db/schema";
import { isDemoEmail } from "#domain/demoAccounts";
import { hashPassword, verifyPassword } from "./passwords";
import type { TokenService } from "./tokens";

export const AUTH_ANSWERS = {
  registered: "Registration successful",
  emailTaken: "An account with this email already exists",
  badCredentials: "Invalid email or password",
  loggedIn: "Login successful",
  wrongCurrentPassword: "Current password is incorrect",
  passwordChanged: "Password changed successfully!",
  noPassword: "This account signs in with its wallet and has no password yet",
  demoEmail: "This email address belongs to the local demo. Please use your own.",
} as const;

export function createAuthService(deps: { config: AppConfig; users: UsersRepository; tokens: TokenService; now: () => Date }) {
  const { config, users, tokens } = deps;

  async function session(user: UserRow) {
    return { user, token: await tokens.issue(user) };
  }

  return {
    async register(input: RegisterRequest) {
      // Nobody makes themselves an admin: it takes the operator's invite code, and is off without one.
      if (input.role === "admin" && !inviteMatches(config.adminInviteCode, input.adminInviteCode)) throw inviteRefused(config.adminInviteCode);
      // The demo logins exist on the local chain only; elsewhere their emails would mark the database as a local one.
      if (!config.isLocalChain && isDemoEmail(input.email)) throw badRequest(AUTH_ANSWERS.demoEmail);
      const passwordHash = await hashPassword(input.password);
      try {
        const user = await users.insert({
          email: input.email,
          passwordHash,
          role: input.role,
          firstName: input.firstName,
          lastName: input.lastName,
          phone: input.phone ?? null,
          address: input.address ?? null,
          walletHint: input.walletAddress?.toLowerCase() ?? null,
        });
        return session(user);
      } catch (error) {
        if (uniqueViolation(error) !== null) throw conflict(AUTH_ANSWERS.emailTaken);
        throw error;
      }
    },

    async login(input: LoginRequest) {
      const user = await users.findByEmail(input.email);
      if (!(await verifyPassword(user?.passwordHash, input.password)) || !user) {
        throw new AppError(401, AUTH_ANSWERS.badCredentials);
      }
      const updated = (await users.update(user.id, { lastLoginAt: deps.now() })) ?? user;
      return session(updated);
    },

    async changePassword(user: UserRow, input: ChangePasswordRequest) {
      if (!user.passwordHash) throw badRequest(AUTH_ANSWERS.noPassword);
      if (!(await verifyPassword(user.passwordHash, input.currentPassword))) throw badRequest(AUTH_ANSWERS.wrongCurrentPassword);
      return (await users.update(user.id, { passwordHash: await hashPassword(input.newPassword) })) ?? user;
    },

    session,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

function inviteMatches(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || !given) return false;
  // Compare digests so the comparison takes the same time whatever the lengths.
  const a = createHash("sha256").update(expected).digest();
  const b = createHash("sha256").update(given).digest();
  return timingSafeEqual(a, b);
}

/** Still the spec's 403 'Access denied', with the field to fix named, so the form says it once, on that field. */
function inviteRefused(code: string | undefined): AppError {
  const error = code ? { path: "adminInviteCode", message: AUTH_MESSAGES.adminInviteCode } : { path: "role", message: AUTH_MESSAGES.adminSignupOff };
  return new AppError(403, MESSAGES.forbidden, { errors: [error] });
}
