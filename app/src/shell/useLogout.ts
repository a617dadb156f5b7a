import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import toast from "react-hot-toast";
import { useSession } from "../lib/session";

/** Logout: success toast, then /login. */
export function useLogout() {
  const logout = useSession((s) => s.logout);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (message = "Logged out successfully") => {
    logout();
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== "config" });
    toast.success(message);
    void navigate("/login", { replace: true });
  };
}
