import type { ReactNode } from "react";
import { PageHeader } from "../../../components/PageHeader";

export function AdminPage({ title, subtitle, children }: { title: string; subtitle: string; children?: ReactNode }) {
  return (
    <div className="admin-page">
      <PageHeader title={title} subtitle={subtitle} />
      {children}
    </div>
  );
}
