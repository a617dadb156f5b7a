import { AdminPage } from "../components/AdminPage";

export function AdminPortfolioPage() {
  return <AdminPage title="Treasury Portfolio" subtitle="Notes held by the treasury: reprice, unlist and withdraw repayments." />;
}
