import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { wireServicingSchema } from "#domain/wire/servicing";
import { adminKeys } from "./keys";

const text = z.string().nullish();

const nftSchema = z
  .object({
    _id: z.string(),
    loanId: z.string(),
    tokenId: z.string(),
    contractAddress: text,
    transactionHash: text,
    ownerAddress: text,
    borrowerEmail: text,
    mintStatus: z.string(),
    mintError: text,
    listingStatus: z.string(),
    metadata: z
      .object({
        name: z.string(),
        description: z.string(),
        loanDetails: z.object({ amount: z.string(), interestRate: z.number(), termMonths: z.number(), purpose: z.string(), status: z.string(), approvalDate: text }),
      })
      .loose(),
    marketplaceStatus: z.string(),
    listingPrice: text,
    listingDate: text,
    isActive: z.boolean(),
    /** Where the loan stands against its schedule, when the answer carries it (the loans list always does). */
    servicing: wireServicingSchema.nullish(),
    createdAt: z.string(),
  })
  .loose();
export type AdminNft = z.infer<typeof nftSchema>;

const pageSchema = z.object({ nfts: z.array(nftSchema), pagination: z.object({ total: z.number(), totalPages: z.number() }).loose() });

/** GET /nfts/admin/all: every loan with a note (or a failed try), with owner and listing from the chain mirror. */
export async function getAllNfts(params: { page: number; limit: number }) {
  const { data } = await http.get<Envelope<unknown>>("/nfts/admin/all", { params });
  return pageSchema.parse(data.data);
}

export function useAllNfts(page: number) {
  const params = { page, limit: 100 };
  return useQuery({ queryKey: adminKeys.nfts(params), queryFn: () => getAllNfts(params), staleTime: 0, refetchInterval: 30_000 });
}
