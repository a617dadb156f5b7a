import { z } from "zod";
import { walletConnectRequestSchema, walletVerifyRequestSchema, type WalletVerifyRequest } from "#domain/schemas/auth";
import { http, type Envelope } from "../../../lib/http";
import { userSchema } from "../../../lib/user";

const challengeSchema = z.object({ message: z.string(), nonce: z.string() });
const linkedSchema = z.object({ user: userSchema, token: z.string().optional() });

/** POST /auth/wallet/connect with the session's token: the SIWE message that proves the wallet. */
export async function getLinkChallenge(walletAddress: string) {
  const { data } = await http.post<Envelope<unknown>>("/auth/wallet/connect", walletConnectRequestSchema.parse({ walletAddress }));
  return challengeSchema.parse(data.data);
}

/** POST /auth/wallet/verify with a bearer token links the wallet to the signed-in account. */
export async function verifyLink(input: WalletVerifyRequest) {
  const { data } = await http.post<Envelope<unknown>>("/auth/wallet/verify", walletVerifyRequestSchema.parse(input));
  return linkedSchema.parse(data.data);
}
