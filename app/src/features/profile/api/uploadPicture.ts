import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { http, type Envelope } from "../../../lib/http";
import { useSession } from "../../../lib/session";
import type { User } from "../../../lib/user";
import { profileKey } from "./getProfile";

const uploadAnswer = z.object({ profilePicture: z.string() }).loose();

/** POST /users/profile/upload-picture, form field profilePicture → data.profilePicture. */
export async function uploadPicture(file: File): Promise<string> {
  const body = new FormData();
  body.append("profilePicture", file);
  const { data } = await http.post<Envelope<unknown>>("/users/profile/upload-picture", body);
  return uploadAnswer.parse(data.data).profilePicture;
}

export function useUploadPicture() {
  const queryClient = useQueryClient();
  const updateUser = useSession((s) => s.updateUser);
  return useMutation({
    mutationFn: uploadPicture,
    onSuccess: (profilePicture) => {
      queryClient.setQueryData<User>(profileKey, (old) => (old ? { ...old, profilePicture } : old));
      updateUser({ profilePicture });
    },
  });
}
