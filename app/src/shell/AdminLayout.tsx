import { useState } from "react";
import { NavLink, Outlet } from "react-router";
import { ADMIN_SIDEBAR } from "./nav";
import { AdminTopBar } from "./admin/AdminTopBar";
import { useAdminCounts, type AdminCounts } from "./admin/api/getAdminCounts";
import "./admin/admin-shell.css";

/** Which sidebar entries carry a live count (real numbers, never a fixed badge). */
const COUNTS: Record<string, { key: keyof AdminCounts; label: string }> = {
  "/admin/request": { key: "pendingLoans", label: "pending requests" },
  "/admin/kyc": { key: "pendingKyc", label: "pending KYC" },
};

/** The admin layout: a sidebar (a drawer on small screens) with real counts, the admin bar, the page. */
export function AdminLayout() {
  const [open, setOpen] = useState(false);
  const { data: counts } = useAdminCounts();
  return (
    <div className="admin container">
      <button type="button" className={`admin__backdrop${open ? " is-open" : ""}`} aria-label="Close admin menu" tabIndex={-1} onClick={() => setOpen(false)} />
      <aside id="admin-sidebar" className={`admin__sidebar${open ? " is-open" : ""}`} aria-label="Admin">
        <p className="admin__label">Administration</p>
        {ADMIN_SIDEBAR.map((item) => {
          const count = COUNTS[item.to];
          const value = count && counts ? Number(counts[count.key]) : 0;
          return (
            <NavLink key={item.to} to={item.to} end={item.end} className="admin__link" onClick={() => setOpen(false)}>
              {item.label}
              {value > 0 && (
                <span className="admin__count" aria-label={`${value} ${count.label}`} data-testid={`sidebar-count-${item.to.split("/").pop()}`}>
                  {value}
                </span>
              )}
            </NavLink>
          );
        })}
      </aside>
      <section className="admin__content">
        <AdminTopBar onMenu={() => setOpen((o) => !o)} menuOpen={open} />
        <Outlet />
      </section>
    </div>
  );
}
