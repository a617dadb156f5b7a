import { useState } from "react";
import { Link } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { usePublicClient } from "wagmi";
import type { Address, Hex } from "viem";
import { displayUsd, parseUsd } from "#domain/money";
import { yieldToMaturity } from "#domain/noteYield";
import type { WireOrder } from "#domain/wire/order";
import { useRuntimeConfig } from "../../../lib/config";
import { useSession } from "../../../lib/session";
import { kycStatusOf } from "../../../lib/user";
import { marketplaceKeys } from "../../../lib/nfts/keys";
import { useNoteWallet } from "../../../lib/nfts/useNoteWallet";
import { orderKeys } from "../../../lib/orders/keys";
import { marketplacePermit } from "../../../lib/orders/marketplacePermit";
import { feeOf, useMarketplaceFeeBps } from "../../../lib/orders/useMarketplaceFee";
import { fillListingCall, fillListingWithPermitCall } from "../../../lib/orders/orderCalls";
import { allowanceToCover } from "../../../lib/orders/allowanceToCover";
import { useMyOrders } from "../../../lib/orders/getMyOrders";
import { KeepOffersFunded } from "../../../lib/orders/KeepOffersFunded";
import { openOfferExposure } from "../../../lib/orders/offerExposure";
import { approveMarketplaceCall } from "../../../lib/orders/useMarketplaceAllowance";
import { orderErrorMessage } from "../../../lib/orders/useOrderFlow";
import { parBreakdown } from "../../../lib/orders/parWords";
import { orderPriceNow } from "../../../lib/orders/orderPriceNow";
import { payoffSplitOf } from "../../../lib/servicing/payoffSplitOf";
import { WalletStepError } from "../../../lib/wallet/txError";
import { WalletBar } from "../../../lib/wallet/WalletBar";
import { ReviewStep } from "../../../lib/wallet/ReviewStep";
import { BuyAction } from "./BuyAction";
import { OwnNoteNotice } from "./OwnNoteNotice";
import { isOwnLoanNote } from "./ownNoteWords";
import { useChainNow } from "../../../lib/chainClock";
import { txProgress } from "../../../lib/txProgress";
import { percentText, shortAddress } from "../../../lib/format";
import type { NftDetails } from "../api/getNft";

/** The buyer's yield to maturity at `price`, from the note's terms and what was repaid. */
export function yieldAt(nft: NftDetails, price: bigint, now: bigint): number | null {
  const terms = { principal: parseUsd(nft.terms.principal), rateBps: nft.terms.rateBps, termMonths: nft.terms.termMonths, start: BigInt(nft.terms.startTime) };
  return yieldToMaturity(terms, parseUsd(nft.totalRepaid), price, now);
}

/**
 * Buy a note by filling its seller's signed listing: one permit signature for at most the shown price, then one
 * fillListingWithPermit transaction naming that price as the most the buyer pays (a par price only falls with a
 * repayment in between, so the buyer never pays more than they saw). The permit leaves the marketplace no allowance
 * after the fill, so a buyer with open offers may keep them funded instead: approve the price plus their exposure,
 * then the plain fillListing, which spends only the price.
 */
export default function BuySignedPanel({ nft, listing }: { nft: NftDetails; listing: WireOrder }) {
  const kyc = kycStatusOf(useSession((s) => s.user));
  const config = useRuntimeConfig().data;
  const wallet = useNoteWallet();
  const client = usePublicClient();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [reviewing, setReviewing] = useState(false);
  const [keepFunded, setKeepFunded] = useState(false);
  // An offer on this very note lapses once the buyer holds it, so it needs no allowance after the purchase.
  const exposure = openOfferExposure((useMyOrders().data?.made ?? []).filter((o) => o.tokenId !== nft.tokenId));
  const twoSteps = keepFunded && exposure.count > 0;
  const feeBps = useMarketplaceFeeBps();
  const split = payoffSplitOf(nft.servicing);
  // Priced from the note's own principal and interest now, so the price and its breakdown agree to the unit.
  const price = orderPriceNow(listing, nft.servicing) ?? 0n;
  const fee = feeBps.data === undefined ? null : feeOf(price, feeBps.data);
  const now = useChainNow();
  const ytm = yieldAt(nft, price, now);

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
      const me = await wallet.ready();
      if (!config?.contracts || !client) throw new WalletStepError("The marketplace is not deployed on this network");
      const target = { marketplace: config.contracts.marketplace as Address, chainId: config.chainId };
      const signed = { message: listing.message, signature: listing.signature as Hex };
      if (twoSteps) {
        const allowed = allowanceToCover(exposure.total, price);
        progress.step(`Confirm in your wallet: allow the marketplace to take up to ${displayUsd(allowed)}: this purchase and your open offers (transaction 1 of 2)…`);
        await wallet.send(approveMarketplaceCall({ chainId: config.chainId, contracts: config.contracts }, allowed));
        progress.step(`Confirm in your wallet: buy note #${nft.tokenId} for at most ${displayUsd(price)} (transaction 2 of 2)…`);
        hash = await wallet.send(fillListingCall(target, signed, price));
      } else {
        progress.step("Reading your permit nonce…");
        const { permit, deadline } = await marketplacePermit(client, config.contracts.stablecoin as Address, config.contracts.marketplace as Address, me, price);
        progress.step(`Sign in your wallet: a permit letting the marketplace take at most ${displayUsd(price)} from your wallet, once (no gas)…`);
        const signature = await wallet.signPermit(permit);
        progress.step(`Confirm in your wallet: buy note #${nft.tokenId} for at most ${displayUsd(price)} (one transaction)…`);
        hash = await wallet.send(fillListingWithPermitCall(target, signed, price, { deadline, signature }));
      }
      progress.done(`Note #${nft.tokenId} is yours`, hash);
    } catch (e) {
      const message = orderErrorMessage(e, "The purchase failed");
      setError(message);
      progress.fail(message, (e as WalletStepError)?.hash ?? hash);
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: marketplaceKeys.all });
      void queryClient.invalidateQueries({ queryKey: marketplaceKeys.portfolio });
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      void queryClient.invalidateQueries({ queryKey: ["marketplace-allowance"] });
    }
  };

  return (
    <div className="stack" data-testid="buy-panel">
      <WalletBar />
      <BuyAction
        reviewing={reviewing}
        review={
          <ReviewStep
            title="Review the purchase"
            lines={[
              { label: "You pay", value: displayUsd(price), testId: "review-amount" },
              { label: "Priced as", value: listing.priceKind === "par" ? parBreakdown(split, listing.parBps) : "A fixed price", testId: "review-priced-as" },
              { label: "Marketplace fee", value: fee === null ? "…" : `${displayUsd(fee)}, paid by the seller out of the price`, testId: "review-fee" },
              { label: "Yield to maturity", value: ytm === null ? "—" : `${percentText(ytm)} a year at this price`, testId: "review-yield" },
              {
                label: "To",
                value: (
                  <>
                    the seller <code>{shortAddress(listing.signer)}</code>
                  </>
                ),
                testId: "review-to",
              },
              { label: "You receive", value: `Note #${nft.tokenId}: ${displayUsd(split.principal)} of principal still owed and ${displayUsd(split.interest)} of interest accrued and unpaid` },
              twoSteps
                ? {
                    label: "Your wallet sends",
                    value: `one approve for ${displayUsd(allowanceToCover(exposure.total, price))}, then one transaction that fills the signed listing for at most ${displayUsd(price)}; the marketplace may still take ${displayUsd(exposure.total)} for your offers`,
                    testId: "review-wallet",
                  }
                : {
                    label: "Your wallet signs",
                    value: `a permit for at most ${displayUsd(price)} (no gas), then one transaction that fills the signed listing; the permit replaces what the marketplace may take`,
                    testId: "review-wallet",
                  },
            ]}
            payer={wallet.address}
            pays={price}
            offersBesides={nft.tokenId}
            confirmLabel={`Confirm and pay ${displayUsd(price)}`}
            onConfirm={() => void buy()}
            onCancel={() => setReviewing(false)}
          >
            <KeepOffersFunded exposure={exposure} price={price} keep={keepFunded} onKeep={setKeepFunded} />
            {isOwnLoanNote(nft.borrowerAddress, wallet.verified) && <OwnNoteNotice price={price} split={split} fee={fee} />}
          </ReviewStep>
        }
        busy={busy}
        disabled={busy || !wallet.isConnected || wallet.mismatch}
        price={displayUsd(price)}
        onReview={() => setReviewing(true)}
        error={error}
      />
    </div>
  );
}
