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

/** The client's session record (spec 01 §3/§4), persisted under `auth-storage`. */
export const useSession = create<SessionState>()(
  persist(
    (set, get) => ({
      ...signedOut,
      setSession: (user, token) =>
        set({ user, token: token ?? get().token, isAuthenticated: true, isLoading: false }),
      updateUser: (patch) => {
        const user = get().user;
        if (user) set({ user: { ...user, ...patch } });
      },
      setLoading: (isLoading) => set({ isLoading }),
      logout: () => {
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
