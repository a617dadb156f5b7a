import type { Envelope } from "./http";
import { useSession } from "./session";

/**
 * Reads the signed-in user again (GET /users/profile) into the session: a KYC decision or a wallet change made while
 * the user was away reaches every page when it opens or the socket reconnects, not only through live events.
 */
export async function refreshSessionUser(): Promise<void> {
  if (!useSession.getState().token) return;
  // The HTTP client and the schema load with the request, so a visitor's first paint never carries them.
  const [{ http }, { userSchema }] = await Promise.all([import("./http"), import("./user")]);
  try {
    const { data } = await http.get<Envelope<unknown>>("/users/profile");
    const user = userSchema.parse(data.data);
    // The session may have ended while the request ran.
    if (useSession.getState().isAuthenticated) useSession.getState().updateUser(user);
  } catch {
    // A failed read keeps what the session had; the HTTP client handles an expired session itself.
  }
}
