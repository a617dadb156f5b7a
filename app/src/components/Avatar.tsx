import { useState } from "react";
import type { User } from "../lib/user";
import { assetUrl, initials } from "../lib/format";

/** The picture when there is one and it loads; the initials otherwise. */
export function Avatar({ user, size = 40, src }: { user: Pick<User, "firstName" | "lastName" | "profilePicture">; size?: number; src?: string | null }) {
  const url = src ?? assetUrl(user.profilePicture);
  const [failed, setFailed] = useState<string | null>(null);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.38) };
  if (url && failed !== url) {
    return (
      <img className="avatar" style={style} src={url} alt={`${user.firstName ?? ""} ${user.lastName ?? ""}`.trim() || "Profile picture"} onError={() => setFailed(url)} data-testid="avatar-img" />
    );
  }
  return (
    <span className="avatar avatar--initials" style={style} aria-label="Profile initials" data-testid="avatar-initials">
      {initials(user.firstName, user.lastName)}
    </span>
  );
}
