import type { OperationGroup } from "../types";

const registration = {
  firstName: "Grace",
  lastName: "Hopper",
  email: "grace@example.com",
  password: "secret123",
  phone: "+1 555 010 0000",
  role: "user",
};
const login = { email: "grace@example.com", password: "secret123" };
const USER = "`data` is `{ user, token }`: the user as the app reads it and a bearer JWT for the Authorization header.";

export const authOperations: OperationGroup = {
  tag: "Auth",
  description: "Email and password accounts, sign-in with a wallet (SIWE), and the /simple-auth aliases of the spec.",
  operations: {
    "POST /api/auth/register": { summary: "Create an account", description: `${USER} Role admin needs the operator's invite code.`, access: "public", status: 201, example: registration },
    "POST /api/auth/login": { summary: "Sign in with email and password", description: USER, access: "public", example: login },
    "GET /api/auth/me": { summary: "The signed-in user", description: "`data` is `{ user }`.", access: "user" },
    "PUT /api/auth/change-password": {
      summary: "Change the password",
      description: "Earlier tokens stop working; `data.token` is a fresh one for this session.",
      access: "user",
      example: { currentPassword: "secret123", newPassword: "better-secret-1" },
    },
    "POST /api/auth/wallet/connect": {
      summary: "Ask for a sign-in message for a wallet",
      description: "Answers the SIWE message and its nonce; the wallet signs the message and sends it to /auth/wallet/verify.",
      access: "public",
      example: { walletAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
    },
    "POST /api/auth/wallet/verify": {
      summary: "Sign in with a signed wallet message, or link the wallet",
      description: `Without a bearer token: signs in (creating a wallet user the first time). With one: links the wallet to that account. ${USER}`,
      access: "optional",
    },
    "POST /api/simple-auth/login": { summary: "Sign in (alias of /auth/login)", description: USER, access: "public", example: login },
    "POST /api/simple-auth/signup": { summary: "Create an account (alias of /auth/register)", description: USER, access: "public", status: 201, example: registration },
  },
};
