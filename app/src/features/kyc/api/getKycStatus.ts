import { useQuery } from "@tanstack/react-query";
import { wireKycStatusSchema, type WireKycStatus } from "#domain/wire/kyc";
import { http, type Envelope } from "../../../lib/http";

export type KycStatusResult = WireKycStatus;

export const kycStatusKey = ["kyc", "status"] as const;

/** GET /users/kyc/status: the user's status, the latest submission and its documents. */
export async function getKycStatus(): Promise<KycStatusResult> {
  const { data } = await http.get<Envelope<unknown>>("/users/kyc/status");
  return wireKycStatusSchema.parse(data.data);
}

export function useKycStatus() {
  return useQuery({ queryKey: kycStatusKey, queryFn: getKycStatus, staleTime: 0 });
}
