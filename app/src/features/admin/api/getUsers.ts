import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { adminUserSchema } from "./userSchema";
import { adminKeys } from "./keys";

const pageSchema = z.object({
  users: z.array(adminUserSchema),
  pagination: z.object({ page: z.number(), totalPages: z.number(), total: z.number() }).loose(),
});
export type UserPage = z.infer<typeof pageSchema>;

export interface UserListParams {
  page?: number;
  limit?: number;
  search?: string;
  kycStatus?: string;
  role?: string;
}

/** GET /admin/users: search by name, email or wallet; KYC status and role filters; pending KYC first. */
export async function getUsers(params: UserListParams): Promise<UserPage> {
  const query = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== "" && v !== "all"));
  const { data } = await http.get<Envelope<unknown>>("/admin/users", { params: query });
  return pageSchema.parse(data.data);
}

export function useUsers(params: UserListParams) {
  return useQuery({ queryKey: adminKeys.users(params), queryFn: () => getUsers(params), placeholderData: keepPreviousData, staleTime: 0, refetchInterval: 30_000 });
}
