import { AdminPage } from "../components/AdminPage";

export function AdminUsersPage() {
  return <AdminPage title="Users" subtitle="Accounts, roles, verified wallets and KYC states." />;
}
