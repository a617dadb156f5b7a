import { AdminPage } from "../components/AdminPage";

export function AdminKycPage() {
  return <AdminPage title="KYC Verification" subtitle="Submitted identity documents waiting for a decision." />;
}
