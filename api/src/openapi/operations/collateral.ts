import { z } from "zod";
import { tokenIdSchema } from "#domain/schemas/nfts";
import { wireCollateralCheckSchema, wireWalletCallSchema, wireWalletNftsSchema } from "#domain/wire/collateral";
import { wireLoanSchema } from "#domain/wire/loan";
import type { OperationGroup } from "../types";

const collectionsSchema = z.array(z.object({ collection: z.string(), name: z.string().nullable() }));

export const collateralOperations: OperationGroup = {
  tag: "Collateral",
  description:
    "NFT collateral (issue 20): the pieces a borrower may pledge, a loan's pledged piece read live, its appraisal, and the claim of a defaulted note's piece. Images are checked image data URIs, to show only as <img>.",
  operations: {
    "GET /api/collateral/mine": {
      summary: "The NFTs of accepted collections my verified wallet holds",
      description:
        "From the chain mirror, with name and image when the collection's on-chain metadata gives them; `pledgedLoanId` names my pending or approved request that already pledges a piece. No verified wallet: `walletAddress` null and no NFTs.",
      access: "user",
      data: wireWalletNftsSchema,
    },
    "GET /api/collateral/collections": { summary: "The NFT collections accepted as collateral", access: "public", data: collectionsSchema },
    "GET /api/loans/{id}/collateral": {
      summary: "A loan's pledged NFT, read live from its collection",
      description:
        "For the loan's borrower and admins. Who holds the piece, whether the escrow may take it, and `approval`: the one wallet call that lets it (null once approved or when the wallet no longer holds it). 404 when the loan pledges none.",
      access: "user",
      data: wireCollateralCheckSchema,
    },
    "PUT /api/admin/loans/{id}/collateral/appraisal": {
      summary: "Appraise a pending request's pledged NFT (admin)",
      description: "USD; the loan-to-value is the requested amount (the principal once approved) over it. 409 once the request is decided. `data` is the loan.",
      access: "admin",
      example: { appraisal: "1500.00" },
      data: wireLoanSchema,
    },
    "POST /api/nfts/{tokenId}/collateral/claim": {
      summary: "Claim a defaulted note's escrowed NFT",
      description:
        "For the note's holder (its depositor while in the vault) after a default, or its borrower when the return at the final payment failed. `to` defaults to my verified wallet. `data.call` is the transaction for the wallet to send.",
      access: "user",
      params: { tokenId: tokenIdSchema },
      example: {},
      data: z.object({ call: wireWalletCallSchema }),
    },
  },
};
