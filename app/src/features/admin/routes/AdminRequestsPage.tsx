import { useState } from "react";
import toast from "react-hot-toast";
import { serverMessage } from "../../../lib/errors";
import { useLoanRequests } from "../api/getLoanRequests";
import { useLoanStats } from "../api/getLoanStats";
import { useCreateDemoLoan } from "../api/createDemoLoan";
import { AdminPage } from "../components/AdminPage";
import { LoanStatCards } from "../components/LoanStatCards";
import { LoanActions } from "../components/LoanActions";
import { StatusBadge } from "../../../components/StatusBadge";
import { QueryState } from "../components/QueryState";
import { Pagination } from "../components/Pagination";
import { useDebounced } from "../../../lib/useDebounced";
import { useLoanReview } from "../components/useLoanReview";
import { useAdminLive } from "../components/useAdminLive";
import { dateText, percentText } from "../components/money";
import { purposeText, usd } from "../../../lib/format";
import { LoanFilterBar } from "../components/LoanFilterBar";

/** The request list pages by 10. */
const PAGE_SIZE = 10;

/** /admin/request: stats, search, status filter, a table of 10 a page, the detail modal and the demo loan button. */
export function AdminRequestsPage() {
  useAdminLive();
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState("all");
  const [page, setPage] = useState(1);
  const debounced = useDebounced(search.trim());
  const stats = useLoanStats();
  const list = useLoanRequests({ page, limit: PAGE_SIZE, status, search: debounced || undefined });
  const demo = useCreateDemoLoan();
  const review = useLoanReview();
  const loans = list.data?.loans ?? [];

  const createDemo = () =>
    demo.mutate(undefined, {
      onSuccess: () => toast.success("Demo loan request created!"),
      onError: (error) => toast.error(serverMessage(error, "Failed to create demo loan")),
    });

  return (
    <AdminPage
      title="Loan Requests"
      subtitle="Approve (funding the borrower and minting the note) or reject with a reason."
      actions={
        <button type="button" className="btn btn--secondary btn--sm" onClick={createDemo} disabled={demo.isPending}>
          {demo.isPending ? "Creating…" : "Create demo loan"}
        </button>
      }
    >
      <LoanStatCards stats={stats.data} />
      <LoanFilterBar
        idPrefix="request"
        placeholder="Borrower, email, purpose or #number"
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
      />
      <QueryState
        loading={list.isLoading}
        error={list.isError}
        empty={!loans.length}
        errorText="Failed to load loan requests. Please try again."
        emptyText={debounced || status !== "all" ? "No requests match these filters" : "No loan requests yet"}
        onRetry={() => void list.refetch()}
      >
        <div className="card table-wrap">
          <table className="table table--cards" data-testid="requests-table">
            <thead>
              <tr>
                <th>#</th>
                <th>Borrower</th>
                <th>Amount</th>
                <th>Purpose</th>
                <th>Rate · Term</th>
                <th>Status</th>
                <th>Requested</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {loans.map((loan) => (
                <tr key={loan._id} data-testid="request-row" data-loan-id={loan._id}>
                  <td data-label="#">{loan.loanNumber}</td>
                  <td data-label="Borrower">
                    {`${loan.user.firstName} ${loan.user.lastName}`.trim()}
                    <div className="muted small">{loan.user.email}</div>
                  </td>
                  <td data-label="Amount">
                    {usd(loan.amount)}
                    {/* A pledged NFT changes the review (appraisal, escrow): the list says so before a row is opened. */}
                    {loan.collateral?.nft && (
                      <div>
                        <span className="badge badge--wallet" data-testid="request-nft-backed">
                          NFT-backed
                        </span>
                      </div>
                    )}
                  </td>
                  <td data-label="Purpose">{purposeText(loan.purpose)}</td>
                  <td data-label="Rate · Term">
                    {percentText(loan.interestRate)} · {loan.termMonths} mo
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={loan.status} />
                  </td>
                  <td data-label="Requested">{dateText(loan.requestDate)}</td>
                  <td>
                    <LoanActions loan={loan} onView={() => review.openDetails(loan._id)} onDecide={review.decide} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="muted small">{list.data?.pagination.totalLoans ?? 0} requests</p>
        <Pagination page={page} totalPages={list.data?.pagination.totalPages ?? 1} onPage={setPage} />
      </QueryState>
      {review.modals}
    </AdminPage>
  );
}
