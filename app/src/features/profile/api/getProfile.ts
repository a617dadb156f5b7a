import { useQuery } from "@tanstack/react-query";
import { http, type Envelope } from "../../../lib/http";
import { userSchema, type User } from "../../../lib/user";

export const profileKey = ["profile"] as const;

/** GET /users/profile: the server's values, which Cancel restores. */
export async function getProfile(): Promise<User> {
  const { data } = await http.get<Envelope<unknown>>("/users/profile");
  return userSchema.parse(data.data);
}

export function useProfile() {
  return useQuery({ queryKey: profileKey, queryFn: getProfile, staleTime: 0 });
}
