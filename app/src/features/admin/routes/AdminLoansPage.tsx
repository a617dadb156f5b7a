import { useState } from "react";
import { AdminPage } from "../components/AdminPage";
import { useAdminLoans } from "../api/getAdminLoans";
import { useLoanStats } from "../api/getLoanStats";
import { LoanStatCards } from "../components/LoanStatCards";
import { LoanCard } from "../components/LoanCard";
import { QueryState } from "../components/QueryState";
import { Pagination } from "../components/Pagination";
import { useDebounced } from "../../../lib/useDebounced";
import { useLoanReview } from "../components/useLoanReview";
import { useAdminLive } from "../components/useAdminLive";
import { LoanFilterBar } from "../components/LoanFilterBar";

const SORTS = [
  { value: "requestDate:desc", label: "Newest first" },
  { value: "requestDate:asc", label: "Oldest first" },
  { value: "amount:desc", label: "Amount (highest)" },
  { value: "amount:asc", label: "Amount (lowest)" },
  { value: "interestRate:desc", label: "Rate (highest)" },
] as const;

/** /admin/loans: stats, search, status filter, sort, and the approve/reject modal. */
export function AdminLoansPage() {
  useAdminLive();
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState("all");
  const [sort, setSort] = useState<string>(SORTS[0].value);
  const [page, setPage] = useState(1);
  const [sortBy, sortOrder] = sort.split(":") as [string, "asc" | "desc"];
  const debounced = useDebounced(search.trim());
  const stats = useLoanStats();
  const list = useAdminLoans({ page, limit: 20, status, search: debounced || undefined, sortBy, sortOrder });
  const review = useLoanReview();
  const loans = list.data?.loans ?? [];

  return (
    <AdminPage title="Manage Loans" subtitle="Every loan request with its status, funding and note.">
      <LoanStatCards stats={stats.data} />
      <LoanFilterBar
        idPrefix="loan"
        placeholder="Borrower, email or purpose"
        search={search}
        status={status}
        onSearch={(value) => {
          setSearch(value);
          setPage(1);
        }}
        onStatus={(value) => {
          setStatus(value);
          setPage(1);
        }}
      >
        <div className="field">
          <label htmlFor="loan-sort">Sort</label>
          <select id="loan-sort" value={sort} onChange={(e) => setSort(e.target.value)}>
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      </LoanFilterBar>
      <QueryState
        loading={list.isLoading}
        error={list.isError}
        empty={!loans.length}
        errorText="Failed to load loan requests. Please try again."
        emptyText={debounced || status !== "all" ? "No loans match these filters" : "No loan requests yet"}
        onRetry={() => void list.refetch()}
      >
        <div className="admin-list" data-testid="admin-loan-list">
          {loans.map((loan) => (
            <LoanCard key={loan._id} loan={loan} onView={() => review.openDetails(loan._id)} onDecide={review.decide} />
          ))}
        </div>
        <Pagination page={page} totalPages={list.data?.pagination.totalPages ?? 1} onPage={setPage} />
      </QueryState>
      {review.modals}
    </AdminPage>
  );
}
