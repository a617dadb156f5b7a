import { walletVerifyRequestSchema, type WalletVerifyRequest } from "#domain/schemas/auth";
import { http, type Envelope } from "../../../lib/http";
import { sessionResponseSchema } from "./login";

/** POST /auth/wallet/verify without a bearer token: signs in, creating a wallet user the first time. */
export async function verifyWallet(input: WalletVerifyRequest) {
  const { data } = await http.post<Envelope<unknown>>("/auth/wallet/verify", walletVerifyRequestSchema.parse(input), {
    headers: { Authorization: "" },
  });
  return { ...sessionResponseSchema.parse(data.data), message: data.message };
}
