import { AdminPage } from "../components/AdminPage";

export function AdminLoansPage() {
  return <AdminPage title="Manage Loans" subtitle="Every loan request with its status, funding and note." />;
}
