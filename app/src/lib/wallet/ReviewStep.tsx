import type { ReactNode } from "react";
import { displayUsd } from "#domain/money";
import { Spinner } from "../../components/Spinner";
import { ReviewCard, type ReviewLine } from "../review/ReviewCard";
import { useTestDollarBalance } from "./useTestDollarBalance";
import { useSession } from "../session";
import { OffersLeftShort } from "../orders/OffersLeftShort";

export type { ReviewLine };

/**
 * What a money move will do, shown before the wallet is asked anything: the lines of the move, the paying wallet's
 * test dollars read from the chain, and Confirm or Cancel. With `pays` it warns (and holds Confirm) when the wallet
 * cannot cover the amount.
 */
export function ReviewStep({
  title,
  lines,
  payer,
  pays,
  offersBesides,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  title: string;
  lines: ReviewLine[];
  /** The wallet the money comes from, whose test-dollar balance is shown. */
  payer: string | undefined;
  /** Micro-dollars leaving the payer's wallet, if any. */
  pays?: bigint | null;
  /** A note whose own offers the move ends (buying it): they are not counted among the offers it may leave short. */
  offersBesides?: string;
  children?: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const balance = useTestDollarBalance(payer);
  const short = pays != null && balance.data !== undefined && balance.data < pays;
  // The user's offers are signed by their verified wallet: paying from it may leave them short.
  const ownWallet = useSession((s) => s.user?.walletAddress?.toLowerCase() ?? null);
  const fromOffersWallet = payer !== undefined && payer.toLowerCase() === ownWallet;
  const balanceLine: ReviewLine = {
    label: "Your wallet's test dollars",
    value: balance.data !== undefined ? displayUsd(balance.data) : balance.isError ? "Unavailable" : <Spinner />,
    testId: "review-balance",
  };
  return (
    <ReviewCard
      title={title}
      lines={[...lines, balanceLine]}
      confirmLabel={confirmLabel}
      confirmDisabled={short || (pays != null && balance.data === undefined && !balance.isError)}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {children}
      {short && (
        <p className="field__error" role="alert" data-testid="review-short">
          Your wallet holds less than this amount: get test dollars first.
        </p>
      )}
      {!short && fromOffersWallet && pays != null && balance.data !== undefined && <OffersLeftShort balance={balance.data} pays={pays} besides={offersBesides} />}
    </ReviewCard>
  );
}
