import { useMutation, useQueryClient } from "@tanstack/react-query";
import { profileUpdateSchema, type ProfileUpdate } from "#domain/schemas/users";
import { http, type Envelope } from "../../../lib/http";
import { useSession } from "../../../lib/session";
import { userSchema, type User } from "../../../lib/user";
import { profileKey } from "./getProfile";

/** PUT /users/profile: the profile fields, or only walletAddress "" (the disconnect). */
export async function updateProfile(input: ProfileUpdate): Promise<User> {
  const { data } = await http.put<Envelope<unknown>>("/users/profile", profileUpdateSchema.parse(input));
  return userSchema.parse(data.data);
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  const updateUser = useSession((s) => s.updateUser);
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      queryClient.setQueryData(profileKey, user);
      updateUser(user);
    },
  });
}
