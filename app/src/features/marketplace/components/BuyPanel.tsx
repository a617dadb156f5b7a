import { useState } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { useRuntimeConfig } from "../../../lib/config";
import { serverMessage } from "../../../lib/errors";
import { useSession } from "../../../lib/session";
import { kycStatusOf } from "../../../lib/user";
import { marketplaceKeys } from "../../../lib/nfts/keys";
import { useNoteWallet } from "../../../lib/nfts/useNoteWallet";
import { prepareBuy } from "../api/prepareBuy";
import type { NftDetails } from "../api/getNft";
import { walletErrorMessage, WalletStepError } from "../../../lib/wallet/txError";
import { WalletBar } from "../../../lib/wallet/WalletBar";
import { txProgress } from "../../../lib/txProgress";
import { shortAddress, usd } from "../../../lib/format";
import { ReviewStep } from "../../../lib/wallet/ReviewStep";
import { BuyAction } from "./BuyAction";
import { OwnNoteNotice } from "./OwnNoteNotice";
import { isOwnLoanNote } from "./ownNoteWords";
import { feeOf, useMarketplaceFeeBps } from "../../../lib/orders/useMarketplaceFee";
import { payoffSplitOf } from "../../../lib/servicing/payoffSplitOf";
import { displayUsd, parseUsd } from "#domain/money";
import { allowanceToCover } from "../../../lib/orders/allowanceToCover";
import { useMyOrders } from "../../../lib/orders/getMyOrders";
import { KeepOffersFunded } from "../../../lib/orders/KeepOffersFunded";
import { openOfferExposure } from "../../../lib/orders/offerExposure";
import { approveMarketplaceCall } from "../../../lib/orders/useMarketplaceAllowance";
import { orderKeys } from "../../../lib/orders/keys";

/**
 * Buy: approved KYC first, then a permit signature (eth_signTypedData_v4) and one buyWithPermit transaction,
 * each step announced in one progress toast that ends with the transaction's explorer link. A buyer with open
 * offers may keep them funded instead: approve the price plus their exposure, then the plain buy (the permit
 * would leave the marketplace no allowance after the purchase).
 */
export default function BuyPanel({ nft }: { nft: NftDetails }) {
  const user = useSession((s) => s.user);
  const kyc = kycStatusOf(user);
  const config = useRuntimeConfig().data;
  const wallet = useNoteWallet();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [reviewing, setReviewing] = useState(false);
  const [keepFunded, setKeepFunded] = useState(false);
  // An offer on this very note lapses once the buyer holds it, so it needs no allowance after the purchase.
  const exposure = openOfferExposure((useMyOrders().data?.made ?? []).filter((o) => o.tokenId !== nft.tokenId));
  const twoSteps = keepFunded && exposure.count > 0;
  const price = nft.listingPrice!;
  const feeBps = useMarketplaceFeeBps();
  const split = payoffSplitOf(nft.servicing);

  if (kyc !== "approved") {
    return (
      <div className="alert alert--warning" role="status" data-testid="buy-kyc">
        <p>
          KYC verification must be approved before you can buy notes. <Link to="/kyc">Go to KYC</Link>
        </p>
      </div>
    );
  }

  const buy = async () => {
    setReviewing(false);
    setBusy(true);
    setError("");
    const progress = txProgress(config);
    let hash: string | undefined;
    try {
      await wallet.ready();
      progress.step("Checking the listing…");
      const offer = await prepareBuy(nft.tokenId, { expectedPrice: price });
      if (twoSteps) {
        if (!config?.contracts) throw new WalletStepError("The marketplace is not deployed on this network");
        const allowed = allowanceToCover(exposure.total, parseUsd(offer.price));
        progress.step(`Confirm in your wallet: allow the marketplace to take up to ${displayUsd(allowed)}: this purchase and your open offers (transaction 1 of 2)…`);
        await wallet.send(approveMarketplaceCall({ chainId: config.chainId, contracts: config.contracts }, allowed));
        progress.step("Confirm the purchase in your wallet (transaction 2 of 2)…");
        hash = await wallet.send(offer.calls.buy);
      } else {
        progress.step(`Sign the permit for ${usd(offer.price)} in your wallet…`);
        const signature = await wallet.signPermit(offer.permit);
        const ready = await prepareBuy(nft.tokenId, { expectedPrice: price, signature, deadline: offer.deadline });
        progress.step("Confirm the purchase in your wallet…");
        hash = await wallet.send(ready.call!);
      }
      progress.done(`Note #${nft.tokenId} is yours`, hash);
      await queryClient.invalidateQueries({ queryKey: marketplaceKeys.all });
      await queryClient.invalidateQueries({ queryKey: marketplaceKeys.portfolio });
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      void queryClient.invalidateQueries({ queryKey: ["marketplace-allowance"] });
    } catch (e) {
      const message = e instanceof WalletStepError || !(e as { isAxiosError?: boolean })?.isAxiosError ? walletErrorMessage(e, "The purchase failed") : serverMessage(e, "The purchase failed");
      setError(message);
      progress.fail(message, (e as WalletStepError)?.hash ?? hash);
      // A stale or repriced listing: show the note as it is now.
      void queryClient.invalidateQueries({ queryKey: marketplaceKeys.nft(nft.tokenId) });
    } finally {
      setBusy(false);
    }
  };

  const own = wallet.verified && (nft.sellerAddress ?? "").toLowerCase() === wallet.verified;
  return (
    <div className="stack" data-testid="buy-panel">
      <WalletBar />
      {own ? (
        <p className="small muted">This is your listing.</p>
      ) : (
        <BuyAction
          reviewing={reviewing}
          review={
            <ReviewStep
              title="Review the purchase"
              lines={[
                { label: "You pay", value: usd(price), testId: "review-amount" },
                {
                  label: "To",
                  value: (
                    <>
                      the seller <code>{shortAddress(nft.sellerAddress)}</code>
                    </>
                  ),
                  testId: "review-to",
                },
                { label: "From", value: <code>{shortAddress(wallet.address)}</code> },
                { label: "You receive", value: `Note #${nft.tokenId}: ${displayUsd(split.principal)} of principal still owed and ${displayUsd(split.interest)} of interest accrued and unpaid` },
                twoSteps
                  ? {
                      label: "Your wallet sends",
                      value: `one approve for ${displayUsd(allowanceToCover(exposure.total, parseUsd(price)))}, then one transaction that buys the on-chain listing for ${usd(price)}; the marketplace may still take ${displayUsd(exposure.total)} for your offers`,
                      testId: "review-wallet",
                    }
                  : {
                      label: "Your wallet signs",
                      value: `a permit for ${usd(price)} (no gas), then one transaction that buys the on-chain listing at that price; the permit replaces what the marketplace may take`,
                      testId: "review-wallet",
                    },
              ]}
              payer={wallet.address}
              pays={parseUsd(price)}
              offersBesides={nft.tokenId}
              confirmLabel={`Confirm and pay ${usd(price)}`}
              onConfirm={() => void buy()}
              onCancel={() => setReviewing(false)}
            >
              <KeepOffersFunded exposure={exposure} price={parseUsd(price)} keep={keepFunded} onKeep={setKeepFunded} />
              {isOwnLoanNote(nft.borrowerAddress, wallet.verified) && (
                <OwnNoteNotice price={parseUsd(price)} split={split} fee={feeBps.data === undefined ? null : feeOf(parseUsd(price), feeBps.data)} />
              )}
            </ReviewStep>
          }
          busy={busy}
          disabled={busy || !wallet.isConnected || wallet.mismatch}
          price={usd(price)}
          onReview={() => setReviewing(true)}
          error={error}
        />
      )}
    </div>
  );
}
