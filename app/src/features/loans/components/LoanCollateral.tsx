import { lazy, Suspense } from "react";
import type { WireLoan } from "#domain/wire/loan";
import { Spinner } from "../../../components/Spinner";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import { shortAddress } from "../../../lib/format";
import { PledgedNftView } from "../../../lib/nfts/PledgedNftView";
import { WalletBar } from "../../../lib/wallet/WalletBar";
import { WithWallet } from "../../../lib/wallet/WithWallet";

const ClaimCollateral = lazy(() => import("../../../lib/nfts/ClaimCollateral"));

/** What happens to the piece, by where it stands, as the borrower reads it. */
const WORDS = {
  pledged: null,
  released: null,
  locked: "Held by the platform's escrow contract: the final payment returns it to your wallet. If the loan defaults, the note's holder may claim it.",
  returnFailed: "The final payment was made, but the NFT's collection refused the return: claim it back to your wallet.",
  returned: "Returned to your wallet with the final payment.",
  claimed: "The loan defaulted and the note's holder claimed the NFT; nothing more is owed on this loan.",
  moved: "The loan was refinanced: the NFT stayed in escrow and now secures the new loan.",
} as const;
const DEFAULTED_WORDS = "The loan defaulted: the NFT stays in escrow until the note's holder claims it, which settles the note.";

/**
 * The NFT pledged for an originated loan: the piece, where it stands and, after a failed return, the
 * borrower's "Claim my NFT back". The pending request's approval step is the request panel's, not this one's.
 */
export function LoanCollateral({ loan, onClaimed }: { loan: WireLoan; onClaimed?: () => void }) {
  const nft = loan.collateral?.nft;
  if (!nft || loan.status === "pending" || loan.status === "rejected") return null;
  const words = nft.state === "locked" && loan.status === "defaulted" ? DEFAULTED_WORDS : WORDS[nft.state];
  return (
    <section className="card stack mt" aria-labelledby="loan-collateral-title" data-testid="loan-collateral">
      <h2 id="loan-collateral-title">Collateral NFT</h2>
      <PledgedNftView nft={nft} />
      {words && (
        <p className="small" data-testid="loan-collateral-words">
          {words}
        </p>
      )}
      {nft.receiver && nft.state === "claimed" && (
        <p className="small muted">
          Claimed to{" "}
          <ExplorerLink kind="address" id={nft.receiver}>
            <code>{shortAddress(nft.receiver)}</code>
          </ExplorerLink>
        </p>
      )}
      {nft.txHash && (
        <p className="small">
          <ExplorerLink kind="tx" id={nft.txHash}>
            The NFT's last move on-chain
          </ExplorerLink>
        </p>
      )}
      {nft.state === "returnFailed" && loan.nftTokenId && (
        <WithWallet>
          <div className="stack">
            <WalletBar />
            <Suspense fallback={<Spinner />}>
              <ClaimCollateral tokenId={String(loan.nftTokenId)} nft={nft} role="borrower" onClaimed={onClaimed} />
            </Suspense>
          </div>
        </WithWallet>
      )}
    </section>
  );
}
