import { z } from "zod";
import { loginRequestSchema, type LoginRequest } from "#domain/schemas/auth";
import { http, type Envelope } from "../../../lib/http";
import { userSchema } from "../../../lib/user";

export const sessionResponseSchema = z.object({ user: userSchema, token: z.string() });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** POST /auth/login: the login screen sends no role; the server decides. */
export async function login(input: LoginRequest): Promise<SessionResponse> {
  const { data } = await http.post<Envelope<unknown>>("/auth/login", loginRequestSchema.parse(input));
  return sessionResponseSchema.parse(data.data);
}
