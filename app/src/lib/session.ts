import { create } from "zustand";
import { persist, createJSONStorage } from "zustand/middleware";
import type { User } from "./user";

export const SESSION_KEY = "auth-storage";

interface SessionState {
  user: User | null;
  token: string | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  setSession: (user: User, token?: string | null) => void;
  updateUser: (patch: Partial<User>) => void;
  setLoading: (isLoading: boolean) => void;
  logout: () => void;
}

const signedOut = { user: null, token: null, isAuthenticated: false, isLoading: false };

/** A session ended in this tab (sign-out or expiry): the page it ended on is not one to return to after login. */
let sessionEnded = false;
export const sessionEndedHere = () => sessionEnded;

/** The client's session record, persisted under `auth-storage`. */
export const useSession = create<SessionState>()(
  persist(
    (set, get) => ({
      ...signedOut,
      setSession: (user, token) => {
        sessionEnded = false;
        set({ user, token: token ?? get().token, isAuthenticated: true, isLoading: false });
      },
      updateUser: (patch) => {
        const user = get().user;
        if (user) set({ user: { ...user, ...patch } });
      },
      setLoading: (isLoading) => set({ isLoading }),
      logout: () => {
        sessionEnded = true;
        set(signedOut);
        useSession.persist.clearStorage();
      },
    }),
    {
      name: SESSION_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ user, token, isAuthenticated }) => ({ user, token, isAuthenticated }),
    },
  ),
);

export const isAdmin = (user: User | null | undefined) => user?.role === "admin";

/** Where a signed-in person lands: admins on their dashboard, everyone else on theirs. */
export const homeFor = (user: User | null | undefined) => (isAdmin(user) ? "/admin" : "/dashboard");

/** What the guards remember when they send a visitor to /login: the page they were opening. */
export interface ReturnState {
  from?: string;
}

/**
 * Where login sends a person: back to the protected page they were opening, if it is one of this app's own paths
 * they may see (an admin's admin pages and profile, a user's pages outside /admin); otherwise their home.
 */
export function returnTo(state: unknown, user: User | null | undefined): string {
  const from = (state as ReturnState | null)?.from;
  // Only an app path: "//host" or "/\host" would leave the origin.
  if (typeof from !== "string" || !/^\/(?![/\\])/.test(from) || /^\/(login|register)\b/.test(from)) return homeFor(user);
  const adminPath = /^\/admin(\/|$|\?|#)/.test(from);
  const shared = /^\/profile(\/|$|\?|#)/.test(from);
  if (isAdmin(user) ? adminPath || shared : !adminPath) return from;
  return homeFor(user);
}
