import { useState } from "react";
import { useUsers } from "../api/getUsers";
import { AdminPage } from "../components/AdminPage";
import { QueryState } from "../components/QueryState";
import { Pagination } from "../components/Pagination";
import { UsersTable } from "../components/UsersTable";
import { useDebounced } from "../../../lib/useDebounced";
import { useUserReview } from "../components/useUserReview";
import { useAdminLive } from "../components/useAdminLive";

/** /admin/users: every account with search and filters; a user's details with loans, wallet and KYC documents. */
export function AdminUsersPage() {
  useAdminLive();
  const [search, setSearch] = useState("");
  const [kycStatus, setKycStatus] = useState("all");
  const [role, setRole] = useState("all");
  const [page, setPage] = useState(1);
  const debounced = useDebounced(search.trim());
  const list = useUsers({ page, limit: 20, search: debounced || undefined, kycStatus, role });
  const review = useUserReview();
  const users = list.data?.users ?? [];
  return (
    <AdminPage title="Users" subtitle="Accounts, roles, verified wallets and KYC states.">
      <div className="admin-toolbar">
        <div className="field field--grow">
          <label htmlFor="user-search">Search</label>
          <input
            id="user-search"
            type="search"
            placeholder="Name, email or wallet"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
          />
        </div>
        <div className="field">
          <label htmlFor="user-kyc">KYC</label>
          <select
            id="user-kyc"
            value={kycStatus}
            onChange={(e) => {
              setKycStatus(e.target.value);
              setPage(1);
            }}
          >
            {["all", "none", "pending", "approved", "rejected"].map((s) => (
              <option key={s} value={s}>
                {s === "all" ? "All KYC states" : s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="user-role">Role</label>
          <select
            id="user-role"
            value={role}
            onChange={(e) => {
              setRole(e.target.value);
              setPage(1);
            }}
          >
            <option value="all">All roles</option>
            <option value="user">Users</option>
            <option value="admin">Admins</option>
          </select>
        </div>
      </div>
      <QueryState
        loading={list.isLoading}
        error={list.isError}
        empty={!users.length}
        errorText="Failed to load users. Please try again."
        emptyText="No users match these filters"
        onRetry={() => void list.refetch()}
      >
        <UsersTable users={users} onOpen={review.open} />
        <p className="muted small">{list.data?.pagination.total ?? 0} users</p>
        <Pagination page={page} totalPages={list.data?.pagination.totalPages ?? 1} onPage={setPage} />
      </QueryState>
      {review.modal}
    </AdminPage>
  );
}
