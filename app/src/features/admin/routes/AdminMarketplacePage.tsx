import { AdminPage } from "../components/AdminPage";

export function AdminMarketplacePage() {
  return <AdminPage title="Marketplace Monitor" subtitle="Listed, funded and repaying notes across the marketplace." />;
}
