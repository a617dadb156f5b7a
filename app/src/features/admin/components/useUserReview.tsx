import { useSearchParams } from "react-router";
import { UserDetailsModal } from "./UserDetailsModal";

/** `?user={id}` (the bell's KYC links) opens a user's details; closing removes it from the address. */
export function useUserReview() {
  const [params, setParams] = useSearchParams();
  const userId = params.get("user");
  const open = (id: string) =>
    setParams(
      (p) => {
        p.set("user", id);
        return p;
      },
      { replace: true },
    );
  const close = () =>
    setParams(
      (p) => {
        p.delete("user");
        return p;
      },
      { replace: true },
    );
  return { open, modal: userId ? <UserDetailsModal userId={userId} onClose={close} /> : null };
}
