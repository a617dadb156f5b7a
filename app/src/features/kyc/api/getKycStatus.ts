import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";

const documentSchema = z.object({ _id: z.string(), kind: z.string(), url: z.string(), mimeType: z.string(), size: z.number(), originalName: z.string().nullish(), uploadedAt: z.string() });

export const kycStatusSchema = z.object({
  status: z.enum(["none", "pending", "approved", "rejected"]).catch("none"),
  kyc: z.object({
    idDocumentType: z.string().nullish(),
    submittedAt: z.string().nullish(),
    reviewedAt: z.string().nullish(),
    rejectionReason: z.string().nullish(),
    notes: z.string().nullish(),
  }),
  kycDocuments: z.record(z.string(), documentSchema.nullable()),
});
export type KycStatusResult = z.infer<typeof kycStatusSchema>;

export const kycStatusKey = ["kyc", "status"] as const;

/** GET /users/kyc/status: the user's status, the latest submission and its documents. */
export async function getKycStatus(): Promise<KycStatusResult> {
  const { data } = await http.get<Envelope<unknown>>("/users/kyc/status");
  return kycStatusSchema.parse(data.data);
}

export function useKycStatus() {
  return useQuery({ queryKey: kycStatusKey, queryFn: getKycStatus, staleTime: 0 });
}
