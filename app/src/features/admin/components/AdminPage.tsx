import type { ReactNode } from "react";
import { PageHeader } from "../../../components/PageHeader";
import "../admin.css";

export function AdminPage({ title, subtitle, actions, children }: { title: string; subtitle: ReactNode; actions?: ReactNode; children?: ReactNode }) {
  return (
    <div className="admin-page">
      <PageHeader title={title} subtitle={subtitle} actions={actions} />
      {children}
    </div>
  );
}
