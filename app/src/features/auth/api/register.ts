import { useMutation } from "@tanstack/react-query";
import { registerRequestSchema, type RegisterRequest } from "#domain/schemas/auth";
import { http, type Envelope } from "../../../lib/http";

/** POST /auth/register: confirmation and terms stay on the client. */
export async function register(input: RegisterRequest): Promise<Envelope<unknown>> {
  const { data } = await http.post<Envelope<unknown>>("/auth/register", registerRequestSchema.parse(input));
  return data;
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
