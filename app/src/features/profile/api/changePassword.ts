import { useMutation } from "@tanstack/react-query";
import { changePasswordRequestSchema } from "../../../../../domain/schemas/auth";
import { http, type Envelope } from "../../../lib/http";

/** PUT /auth/change-password: currentPassword and newPassword (the confirmation is not sent). */
export async function changePassword(input: { currentPassword: string; newPassword: string }) {
  const body = changePasswordRequestSchema.parse(input);
  const { data } = await http.put<Envelope<unknown>>("/auth/change-password", { currentPassword: body.currentPassword, newPassword: body.newPassword });
  return data;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
