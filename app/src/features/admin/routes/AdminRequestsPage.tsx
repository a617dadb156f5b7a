import { AdminPage } from "../components/AdminPage";

export function AdminRequestsPage() {
  return <AdminPage title="Loan Requests" subtitle="Pending requests to approve (funding the borrower and minting the note) or reject with a reason." />;
}
