import { useState } from "react";
import { useUsers } from "../api/getUsers";
import { AdminPage } from "../components/AdminPage";
import { QueryState } from "../components/QueryState";
import { Pagination } from "../components/Pagination";
import { UsersTable } from "../components/UsersTable";
import { useUserReview } from "../components/useUserReview";
import { useAdminLive } from "../components/useAdminLive";

/** /admin/kyc: the queue of pending KYC submissions; each opens its documents and the decision. */
export function AdminKycPage() {
  useAdminLive();
  const [page, setPage] = useState(1);
  const list = useUsers({ page, limit: 20, kycStatus: "pending" });
  const review = useUserReview();
  const users = list.data?.users ?? [];
  return (
    <AdminPage title="KYC Verification" subtitle="Submitted identity documents waiting for a decision.">
      <QueryState
        loading={list.isLoading}
        error={list.isError}
        empty={!users.length}
        errorText="Failed to load the KYC queue. Please try again."
        emptyText="No KYC submissions are waiting for review"
        onRetry={() => void list.refetch()}
      >
        <p className="muted small" data-testid="kyc-queue-count">
          {list.data?.pagination.total ?? 0} waiting for review
        </p>
        <UsersTable users={users} onOpen={review.open} />
        <Pagination page={page} totalPages={list.data?.pagination.totalPages ?? 1} onPage={setPage} />
      </QueryState>
      {review.modal}
    </AdminPage>
  );
}
