import { useMutation } from "@tanstack/react-query";
import { changePasswordRequestSchema } from "#domain/schemas/auth";
import { http, type Envelope } from "../../../lib/http";
import { useSession } from "../../../lib/session";

/** PUT /auth/change-password: currentPassword and newPassword (the confirmation is not sent). */
export async function changePassword(input: { currentPassword: string; newPassword: string }) {
  const body = changePasswordRequestSchema.parse(input);
  const { data } = await http.put<Envelope<{ token?: string }>>("/auth/change-password", { currentPassword: body.currentPassword, newPassword: body.newPassword });
  return data;
}

/** The server ends every older session on a password change, so this tab adopts the new token it answers. */
export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: ({ data }) => {
      const { user, setSession } = useSession.getState();
      if (data?.token && user) setSession(user, data.token);
    },
  });
}
