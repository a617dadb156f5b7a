import { z } from "zod";
import { walletConnectRequestSchema } from "#domain/schemas/auth";
import { http, type Envelope } from "../../../lib/http";

export const walletNonceSchema = z.object({ message: z.string(), nonce: z.string() });

/** POST /auth/wallet/connect → the SIWE message to sign and its single-use nonce. */
export async function getWalletNonce(walletAddress: string) {
  const { data } = await http.post<Envelope<unknown>>("/auth/wallet/connect", walletConnectRequestSchema.parse({ walletAddress }), {
    // Signing in by wallet is a fresh session: never send an old token along.
    headers: { Authorization: "" },
  });
  return walletNonceSchema.parse(data.data);
}
