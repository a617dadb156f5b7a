import { useQuery } from "@tanstack/react-query";
import { http, type Envelope } from "../../../lib/http";
import { userDetailsSchema, type UserDetails } from "./userSchema";
import { adminKeys } from "./keys";

/** GET /admin/users/{id}: the user, their KYC with its documents, and their loans. */
export async function getUserDetails(id: string): Promise<UserDetails> {
  const { data } = await http.get<Envelope<unknown>>(`/admin/users/${id}`);
  return userDetailsSchema.parse(data.data);
}

export function useUserDetails(id: string | null) {
  return useQuery({ queryKey: adminKeys.user(id ?? ""), queryFn: () => getUserDetails(id!), enabled: Boolean(id), staleTime: 0 });
}
