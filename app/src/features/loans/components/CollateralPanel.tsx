import { lazy, Suspense } from "react";
import type { WireLoan } from "#domain/wire/loan";
import { Spinner } from "../../../components/Spinner";
import { useCollateralCheck } from "../../../lib/collateral/getCollateralCheck";
import { shortAddress } from "../../../lib/format";
import { PledgedNftView } from "../../../lib/nfts/PledgedNftView";
import { WithWallet } from "../../../lib/wallet/WithWallet";

const ApproveEscrow = lazy(() => import("./ApproveEscrow"));

/**
 * The NFT pledged by a pending request, read live from its collection: is it still in
 * the borrower's verified wallet, may the escrow take it, and if not yet, the one approval to send (in words first).
 */
export function CollateralPanel({ loan, onChanged }: { loan: WireLoan; onChanged: () => void }) {
  const nft = loan.collateral?.nft;
  const pending = loan.status === "pending";
  const check = useCollateralCheck(loan._id, Boolean(nft) && pending);
  // Once originated (or rejected), LoanCollateral shows where the piece stands.
  if (!nft || !pending) return null;
  const live = check.data;

  return (
    <section className="card stack mt" data-testid="collateral-panel">
      <h2>Collateral</h2>
      <PledgedNftView nft={live?.nft ?? nft} />
      {check.isPending ? (
        <p className="row gap-sm muted small" role="status">
          <Spinner /> Checking the NFT on-chain…
        </p>
      ) : check.isError || !live ? (
        <div className="alert alert--danger" role="alert">
          The NFT could not be checked on-chain right now.{" "}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void check.refetch()}>
            Retry
          </button>
        </div>
      ) : (
        <>
          <ul className="collateral-panel__checks" aria-label="Before the loan can be funded">
            <li className={`badge badge--${live.held ? "success" : "danger"}`} data-testid="collateral-held" data-value={String(live.held)}>
              {live.held ? "In your wallet" : "Not in your wallet"}
            </li>
            <li className={`badge badge--${live.approved ? "success" : "warning"}`} data-testid="collateral-approved" data-value={String(live.approved)}>
              {live.approved ? "Escrow approved" : "Escrow not approved yet"}
            </li>
          </ul>
          {!live.held ? (
            <p className="alert alert--danger" role="alert" data-testid="collateral-not-held">
              Your verified wallet
              {live.borrowerWallet ? (
                <>
                  {" "}
                  <code>{shortAddress(live.borrowerWallet)}</code>
                </>
              ) : null}{" "}
              no longer holds this NFT
              {live.owner ? (
                <>
                  {" "}
                  (it is held by <code>{shortAddress(live.owner)}</code>)
                </>
              ) : null}
              . The request cannot be approved until the NFT is back in that wallet.
            </p>
          ) : live.approval ? (
            <div className="stack" data-testid="collateral-approval">
              <p data-testid="approval-summary">{live.approval.summary}</p>
              <p className="small muted">
                The NFT stays in your wallet until an administrator approves the loan: the funding transaction then moves it into the loan note's escrow, and your final payment sends it back.
              </p>
              <WithWallet>
                <Suspense fallback={<Spinner />}>
                  <ApproveEscrow
                    call={live.approval}
                    onSent={() => {
                      void check.refetch();
                      onChanged();
                    }}
                  />
                </Suspense>
              </WithWallet>
            </div>
          ) : live.approved ? (
            <p className="alert alert--success" role="status" data-testid="collateral-ready">
              Ready: the loan note may take the NFT into escrow when your loan is funded. Keep it in your wallet until then.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
