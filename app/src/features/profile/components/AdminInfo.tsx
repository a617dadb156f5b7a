import type { User } from "../../../lib/user";
import { todayText } from "../../../lib/format";

/** Admins also see this block. */
export function AdminInfo({ user }: { user: User }) {
  const lastLogin = user.lastLogin ? new Date(user.lastLogin).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" }) : todayText();
  return (
    <section className="card admin-info" aria-labelledby="admin-info-title" data-testid="admin-info">
      <h2 id="admin-info-title">Admin Information</h2>
      <dl className="details">
        <div>
          <dt>Admin level</dt>
          <dd>Super Admin</dd>
        </div>
        <div>
          <dt>Permissions</dt>
          <dd>Full Access</dd>
        </div>
        <div>
          <dt>Last login</dt>
          <dd>{lastLogin}</dd>
        </div>
      </dl>
    </section>
  );
}
