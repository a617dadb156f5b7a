import { useState } from "react";
import { NavLink, Outlet } from "react-router";
import { ADMIN_SIDEBAR } from "./nav";

/** The admin layout: a sidebar (a drawer on small screens) beside the page. */
export function AdminLayout() {
  const [open, setOpen] = useState(false);
  return (
    <div className="admin container">
      <button type="button" className="btn btn--ghost btn--sm admin__toggle" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls="admin-sidebar">
        {open ? "Hide admin menu" : "Admin menu"}
      </button>
      <aside id="admin-sidebar" className={`admin__sidebar${open ? " is-open" : ""}`} aria-label="Admin">
        <p className="admin__label">Administration</p>
        {ADMIN_SIDEBAR.map((item) => (
          <NavLink key={item.to} to={item.to} end={item.end} className="admin__link" onClick={() => setOpen(false)}>
            {item.label}
          </NavLink>
        ))}
      </aside>
      <section className="admin__content">
        <Outlet />
      </section>
    </div>
  );
}
