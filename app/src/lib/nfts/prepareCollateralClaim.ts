import { z } from "zod";
import { wireWalletCallSchema } from "#domain/wire/collateral";
import { http, type Envelope } from "../http";

const claimAnswerSchema = z.object({ call: wireWalletCallSchema });

/**
 * POST /nfts/{id}/collateral/claim {to}: the claimCollateral call for the note's escrowed NFT, with its summary in
 * words. The holder of a defaulted note takes the piece (the note is settled and burned); the borrower pulls it back
 * after a failed return. A 403 or 409 says why not, in the API's words.
 */
export async function prepareCollateralClaim(tokenId: string, to: string | null) {
  const { data } = await http.post<Envelope<unknown>>(`/nfts/${encodeURIComponent(tokenId)}/collateral/claim`, to ? { to } : {});
  return claimAnswerSchema.parse(data.data).call;
}
