import { collateralTypeLabel } from "#domain/schemas/loans";
import { lazy, Suspense, useEffect, useRef } from "react";
import { Link, useParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { isAxiosError } from "axios";
import { parseUsd } from "#domain/money";
import type { WireLoan } from "#domain/wire/loan";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { useRealtimeEvent } from "../../../lib/realtime/hooks";
import { WithWallet } from "../../../lib/wallet/WithWallet";
import { useLoan } from "../api/getLoan";
import { useLoanActivity } from "../api/getLoanActivity";
import { loanKeys } from "../api/keys";
import { repaidShare } from "../components/LoanListItem";
import { dateText } from "../components/money";
import { interestLine, purposeText, statusText, usd } from "../../../lib/format";
import { CollateralValue, LtvWarning } from "../../../lib/collateral/CollateralValue";
import { installments, loanTerms, ScheduleTable } from "../components/ScheduleTable";
import { StatusBadge } from "../../../components/StatusBadge";
import { ServicingBadge } from "../../../components/ServicingBadge";
import { cureText, servicingLabel } from "../../../lib/servicing/servicingWords";
import { Timeline } from "../components/Timeline";
import { LoanCollateral } from "../components/LoanCollateral";
import { CollateralPanel } from "../components/CollateralPanel";
import { collateralCheckKey } from "../../../lib/collateral/getCollateralCheck";
import { releasedText } from "../../../lib/nfts/collateralWords";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import "../loans.css";
import { useChainNow } from "../../../lib/chainClock";

const RepayPanel = lazy(() => import("../components/RepayPanel"));

/**
 * What is past due on an active loan and that paying it cures the loan, from the note's servicing; before the API
 * knows it (no note yet), the schedule's own count of late installments.
 */
function PastDue({ loan, lateInstallments }: { loan: WireLoan; lateInstallments: number }) {
  const cure = loan.servicing ? cureText(loan.servicing) : null;
  if (loan.servicing && !cure) return null;
  if (!cure && lateInstallments === 0) return null;
  return (
    <div className="alert alert--danger" role="alert" data-testid="loan-past-due">
      <p>{cure && loan.servicing ? `${servicingLabel(loan.servicing)}: ${cure}` : `${lateInstallments} installment${lateInstallments > 1 ? "s are" : " is"} late.`}</p>
    </div>
  );
}

/** /loans/{id} and /loan/{id}: terms, timeline, schedule, the note and its holder, and repayment. */
export function LoanDetailsPage() {
  const { id } = useParams();
  const queryClient = useQueryClient();
  const loan = useLoan(id);
  const minted = loan.data?.mintStatus === "minted";
  const activity = useLoanActivity(id, minted);
  const chainNow = useChainNow();
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const refresh = () => {
    if (!id) return;
    void queryClient.invalidateQueries({ queryKey: loanKeys.one(id) });
    void queryClient.invalidateQueries({ queryKey: loanKeys.activity(id) });
    void queryClient.invalidateQueries({ queryKey: collateralCheckKey(id) });
  };
  const mine = (p: { loanId?: string; tokenId?: string; nftId?: string }) =>
    !p.loanId && !p.tokenId && !p.nftId ? true : p.loanId === id || (loan.data && [p.tokenId, p.nftId].includes(String(loan.data.loanNumber)));
  useRealtimeEvent("loan:status", (p) => mine(p) && refresh());
  useRealtimeEvent("loan:funded", (p) => mine(p) && refresh());
  useRealtimeEvent("marketplace:update", (p) => mine(p) && refresh());
  useRealtimeEvent("notification:new", refresh);
  useRealtimeEvent("collateral:update", (p) => mine(p) && refresh());
  useRealtimeEvent("loan:refinanced", (p) => mine(p) && refresh());

  // The mirror follows the chain within moments of a receipt: look again a few times.
  const afterPayment = () => {
    refresh();
    timers.current.push(setTimeout(refresh, 1500), setTimeout(refresh, 4000));
    void queryClient.invalidateQueries({ queryKey: loanKeys.all });
  };

  if (loan.isPending)
    return (
      <div className="container page" role="status">
        <Spinner /> Loading the loan…
      </div>
    );
  if (loan.isError) {
    const missing = isAxiosError(loan.error) && loan.error.response?.status === 404;
    return (
      <div className="container page">
        <PageHeader
          title="Loan details"
          actions={
            <Link to="/loans/my-loans" className="btn btn--ghost">
              Back to My Loans
            </Link>
          }
        />
        <div className="alert alert--danger" role="alert">
          {missing ? "This loan does not exist or is not yours." : "Failed to load the loan. Please try again."}
          {!missing && (
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => void loan.refetch()}>
              Retry
            </button>
          )}
        </div>
      </div>
    );
  }

  const note = activity.data;
  // The chain is the source of truth: a burned note is a repaid loan even before the indexer records it.
  const l = note?.burned && loan.data.status === "active" ? { ...loan.data, status: "completed" as const } : loan.data;
  const terms = loanTerms(l);
  const repaid = parseUsd(l.totalRepaid);
  // The last repayment on-chain: after an early payoff, that payoff (the schedule shows it as its own line).
  const lastRepayment = note?.entries
    .filter((e) => e.kind === "repayment" && e.amount)
    .sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex)
    .at(-1);
  const schedule = terms ? installments(terms, repaid, l.status === "completed", chainNow, lastRepayment ? parseUsd(lastRepayment.amount!) : null) : null;
  const rows = schedule?.rows ?? [];
  const late = rows.filter((r) => r.state === "late");
  // A loan that never ran (rejected, or still waiting) has no balance and no payment due: its terms read as requested.
  const live = l.status !== "rejected" && l.status !== "pending";
  const repayable = minted && (l.status === "active" || l.status === "defaulted");

  return (
    <div className="container page" data-testid="loan-details" data-status={l.status}>
      <PageHeader
        title={`Loan #${l.loanNumber}`}
        subtitle={
          <>
            {purposeText(l.purpose)} · requested {dateText(l.requestDate)} <StatusBadge status={l.status} label={statusText(l.status)} testId="loan-status" />
          </>
        }
        actions={
          <div className="row gap-sm">
            {minted && (
              <Link to={`/loans/${l._id}/statement`} className="btn btn--secondary" data-testid="statement-link">
                Statement
              </Link>
            )}
            <Link to="/loans/my-loans" className="btn btn--ghost">
              Back to My Loans
            </Link>
          </div>
        }
      />

      {l.status === "pending" && (
        <p className="alert alert--info" role="status">
          Your request is waiting for an administrator's decision.
        </p>
      )}
      {l.status === "pending" && <LtvWarning principal={parseUsd(l.principal ?? l.amount)} collateral={l.collateral} />}
      {l.status === "rejected" && (
        <div className="alert alert--danger" role="status" data-testid="loan-rejected">
          <p>
            <strong>This request was rejected{l.rejectionDate ? ` on ${dateText(l.rejectionDate)}` : ""}.</strong> Nothing was funded and nothing is owed.
          </p>
          <p>Reason: {l.rejectionReason || "Please contact support for details."}</p>
          {l.collateral?.nft?.state === "released" && <p data-testid="collateral-released">{releasedText(l.collateral.nft)}</p>}
        </div>
      )}
      {l.refinancedTo && (
        <p className="alert alert--info" role="status" data-testid="loan-refinanced">
          This loan was refinanced: a new lender paid it off in full. <Link to={`/loans/${l.refinancedTo}`}>See the new loan</Link>
        </p>
      )}
      {l.refinancedFrom && (
        <p className="alert alert--info" role="status" data-testid="loan-refinances">
          This loan comes from refinancing an earlier one. <Link to={`/loans/${l.refinancedFrom}`}>See the earlier loan</Link>
        </p>
      )}
      {l.status === "approved" && l.mintStatus !== "failed" && (
        <p className="alert alert--info" role="status">
          <Spinner /> Approved: the principal is being sent to your wallet and the note minted.
        </p>
      )}
      {l.mintStatus === "failed" && (
        <p className="alert alert--warning" role="status">
          Approved, but the funding transaction failed; an administrator will retry it.
        </p>
      )}
      {l.status === "completed" && (
        <p className="alert alert--success" role="status" data-testid="loan-completed">
          Repaid in full. The note was burned.
        </p>
      )}
      {l.status === "active" && <PastDue loan={l} lateInstallments={late.length} />}

      <div className="grid-2 mt">
        <section className="card stack">
          <h2>Terms</h2>
          <dl className="loan-facts">
            <div>
              <dt>Requested</dt>
              <dd>{usd(l.amount)}</dd>
            </div>
            <div>
              <dt>Interest rate</dt>
              <dd>{l.interestRate}% a year</dd>
            </div>
            <div>
              <dt>Term</dt>
              <dd>{l.termMonths} months</dd>
            </div>
            {live && (
              <>
                <div>
                  <dt>Funded</dt>
                  <dd>{usd(l.principal)}</dd>
                </div>
                <div>
                  <dt>Monthly payment</dt>
                  <dd>{usd(l.monthlyPayment)}</dd>
                </div>
                <div>
                  <dt>{interestLine(l).label}</dt>
                  <dd data-testid="loan-interest">{interestLine(l).value}</dd>
                </div>
                <div>
                  <dt>Repaid</dt>
                  <dd data-testid="loan-repaid">{usd(l.totalRepaid)}</dd>
                </div>
                <div>
                  <dt>Remaining</dt>
                  <dd data-testid="loan-remaining">{usd(l.remainingBalance)}</dd>
                </div>
                <div>
                  <dt>Start</dt>
                  <dd>{dateText(l.noteStart)}</dd>
                </div>
                <div>
                  <dt>Maturity</dt>
                  <dd>{dateText(l.maturityDate)}</dd>
                </div>
              </>
            )}
            {l.status === "pending" && (
              <div>
                <dt>Monthly payment, if approved in full</dt>
                <dd>{usd(l.monthlyPayment)}</dd>
              </div>
            )}
            {l.servicing && (
              <div>
                <dt>Payments</dt>
                <dd>
                  <ServicingBadge servicing={l.servicing} testId="loan-servicing" />
                </dd>
              </div>
            )}
            {l.performance && (
              <div>
                <dt>Performance</dt>
                <dd>{purposeText(l.performance)}</dd>
              </div>
            )}
          </dl>
          {l.status === "active" && (
            <div>
              <div className="progress" aria-hidden="true">
                <span style={{ width: `${repaidShare(l)}%` }} />
              </div>
              <p className="small muted">{repaidShare(l)}% repaid</p>
            </div>
          )}
          {l.collateral && (
            <p className="small">
              <strong>Collateral:</strong> {collateralTypeLabel(l.collateral.type)}, <CollateralValue collateral={l.collateral} /> — {l.collateral.description}
            </p>
          )}
          {l.adminNotes && (
            <p className="small">
              <strong>Administrator's notes:</strong> {l.adminNotes}
            </p>
          )}
        </section>

        <section className="card stack" data-testid="loan-note">
          <h2>Loan note</h2>
          {l.status === "rejected" ? (
            <p className="muted">No note: the request was rejected.</p>
          ) : !minted ? (
            <p className="muted">The note is minted when the loan is approved and funded.</p>
          ) : (
            <dl className="loan-facts">
              <div>
                <dt>Note</dt>
                <dd>
                  <Link to={`/marketplace/nft/${l.nftTokenId}`}>Note #{l.nftTokenId}</Link>
                </dd>
              </div>
              <div>
                <dt>Current holder</dt>
                <dd data-testid="note-holder">
                  {activity.isPending ? (
                    <Spinner />
                  ) : activity.isError ? (
                    "Unavailable"
                  ) : note?.burned ? (
                    l.collateral?.nft?.state === "claimed" ? (
                      "Burned (its NFT was claimed)"
                    ) : (
                      "Burned (repaid)"
                    )
                  ) : note?.holder ? (
                    <ExplorerLink kind="address" id={note.holder} />
                  ) : (
                    "Not yet indexed"
                  )}
                </dd>
              </div>
              {l.borrowerWallet && (
                <div>
                  <dt>Funded to</dt>
                  <dd>
                    <ExplorerLink kind="address" id={l.borrowerWallet} />
                  </dd>
                </div>
              )}
              {l.nftTransactionHash && (
                <div>
                  <dt>Funding and mint</dt>
                  <dd>
                    <ExplorerLink kind="tx" id={l.nftTransactionHash} />
                  </dd>
                </div>
              )}
              <div>
                <dt>On-chain history</dt>
                <dd>
                  <ExplorerLink kind="token" id={String(l.nftTokenId)}>
                    Every transaction of note #{l.nftTokenId}
                  </ExplorerLink>
                </dd>
              </div>
            </dl>
          )}
          {repayable && (
            <>
              <h3>Repay</h3>
              <WithWallet>
                <Suspense fallback={<Spinner />}>
                  <RepayPanel loan={l} rows={rows} onPaid={afterPayment} />
                </Suspense>
              </WithWallet>
            </>
          )}
        </section>
      </div>

      <LoanCollateral loan={l} onClaimed={afterPayment} />
      <CollateralPanel loan={l} onChanged={refresh} />

      {schedule && (
        <section className="card mt">
          <h2>Amortisation schedule</h2>
          <ScheduleTable schedule={schedule} payoffDate={schedule.payoff !== null ? lastRepayment?.time : null} />
        </section>
      )}

      <section className="card mt">
        <h2>Timeline</h2>
        {activity.isError && (
          <p className="small muted" role="status">
            On-chain steps are unavailable right now.
          </p>
        )}
        <Timeline events={l.timeline ?? []} chain={note?.entries ?? []} />
      </section>
    </div>
  );
}
