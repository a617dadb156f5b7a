import { lazy, Suspense } from "react";
import { Spinner } from "../../../components/Spinner";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import { shortAddress } from "../../../lib/format";
import { PledgedNftView } from "../../../lib/nfts/PledgedNftView";
import { WithWallet } from "../../../lib/wallet/WithWallet";
import type { NftDetails } from "../api/getNft";

const ClaimCollateral = lazy(() => import("../../../lib/nfts/ClaimCollateral"));

/**
 * The note's escrowed NFT and, for the holder of a defaulted note while the piece is still in escrow,
 * the claim. A note without one says it is unsecured.
 */
export function NoteCollateral({ nft, mine }: { nft: NftDetails; mine: boolean }) {
  const c = nft.collateral;
  const defaulted = nft.noteStatus === "defaulted" || nft.metadata.loanDetails.status === "defaulted";
  return (
    <section className="card stack" aria-labelledby="collateral-title" data-testid="note-collateral">
      <h2 id="collateral-title">Collateral</h2>
      {!c ? (
        <p className="muted" data-testid="note-unsecured">
          Unsecured: no NFT is escrowed for this loan.
        </p>
      ) : (
        <>
          <PledgedNftView nft={c} />
          {c.state === "locked" && !defaulted && (
            <p className="small muted">Held by the platform's escrow contract until the loan is repaid (it goes back to the borrower) or defaults (the note's holder may claim it).</p>
          )}
          {c.receiver && (c.state === "returned" || c.state === "claimed") && (
            <p className="small muted" data-testid="collateral-receiver">
              Sent to{" "}
              <ExplorerLink kind="address" id={c.receiver}>
                <code>{shortAddress(c.receiver)}</code>
              </ExplorerLink>
            </p>
          )}
          {c.txHash && (
            <p className="small">
              <ExplorerLink kind="tx" id={c.txHash}>
                The NFT's last move on-chain
              </ExplorerLink>
            </p>
          )}
          {defaulted &&
            c.state === "locked" &&
            (mine ? (
              <WithWallet>
                <Suspense fallback={<Spinner />}>
                  <ClaimCollateral tokenId={nft.tokenId} nft={c} role="holder" />
                </Suspense>
              </WithWallet>
            ) : (
              <p className="small muted" data-testid="collateral-claimable">
                The loan defaulted: the note's holder may claim this NFT.
              </p>
            ))}
        </>
      )}
    </section>
  );
}
