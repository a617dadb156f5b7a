import { useState } from "react";
import { useConnectModal } from "@rainbow-me/rainbowkit";
import { isAxiosError } from "axios";
import { displayUsd, formatUsdAmount } from "../../../../../domain/money";
import { serverMessage } from "../../../lib/errors";
import { shortAddress } from "../../../lib/format";
import { DevWalletPicker } from "../../../lib/wallet/DevWalletPicker";
import type { Loan } from "../api/loanSchema";
import { prepareRepayment } from "../api/prepareRepayment";
import type { installments } from "./ScheduleTable";
import { txProgress } from "./txProgress";
import { useWalletSender, walletErrorMessage, WalletStepError } from "../../../lib/wallet/useWalletSender";

type Rows = ReturnType<typeof installments>;

/**
 * Repay the next installment or everything: the API checks the amount against the note and answers the permit,
 * the wallet signs it, the API answers the repayWithPermit call, the wallet sends it: one transaction.
 */
export default function RepayPanel({ loan, rows, onPaid }: { loan: Loan; rows: Rows; onPaid: (hash: string) => void }) {
  const wallet = useWalletSender({ requireVerifiedWallet: false });
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const [busy, setBusy] = useState<"installment" | "payoff" | null>(null);
  const [error, setError] = useState("");
  const next = rows.find((r) => r.state !== "paid");
  if (!next) return null;

  const pay = async (mode: "installment" | "payoff") => {
    setBusy(mode);
    setError("");
    const progress = txProgress();
    let hash: string | undefined;
    try {
      const payer = await wallet.ready();
      progress.step("Checking the amount with the loan's schedule…");
      let amount = formatUsdAmount(next.owed);
      const installmentNumber = mode === "installment" ? next.index : undefined;
      if (mode === "payoff") {
        // Ask what settles the loan today: principal outstanding plus this period's accrued interest.
        const quote = await prepareRepayment(loan._id, { amount: loan.remainingBalance, walletAddress: payer });
        amount = quote.schedule.payoffAmount;
      }
      const offer = await prepareRepayment(loan._id, { amount, installmentNumber, walletAddress: payer });
      if (!offer.permit) throw new WalletStepError("The server did not answer a permit to sign");
      progress.step(`Sign the permit for ${displayUsd(BigInt(offer.permit.message.value))} in your wallet…`);
      const signature = await wallet.signPermit(offer.permit);
      const ready = await prepareRepayment(loan._id, { amount, installmentNumber, walletAddress: payer, signature, deadline: offer.deadline });
      if (!ready.call) throw new WalletStepError("The server did not answer the repayment call");
      progress.step("Confirm the repayment in your wallet…");
      hash = await wallet.send(ready.call);
      progress.done(mode === "payoff" ? "Loan paid off" : `Installment ${next.index} paid`, hash);
      onPaid(hash);
    } catch (e) {
      const message = isAxiosError(e) ? serverMessage(e, "The repayment failed") : walletErrorMessage(e, "The repayment failed");
      setError(message);
      progress.fail(message, (e as WalletStepError)?.hash ?? hash);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="stack" data-testid="repay-panel">
      {!wallet.isConnected ? (
        <div className="stack">
          <DevWalletPicker />
          <div>
            <button type="button" className="btn btn--secondary" onClick={() => openConnectModal?.()} disabled={connectModalOpen}>
              {connectModalOpen ? "Connecting Wallet..." : "Connect Wallet"}
            </button>{" "}
            <span className="small muted">Any wallet holding the test dollars can repay.</span>
          </div>
        </div>
      ) : (
        <p className="small muted">Paying from <code>{shortAddress(wallet.address)}</code>: one permit signature, then one transaction.</p>
      )}
      <div className="row gap-sm">
        <button type="button" className="btn btn--primary" disabled={!wallet.isConnected || busy !== null} onClick={() => pay("installment")} data-testid="repay-installment">
          {busy === "installment" ? "Repaying…" : `Pay installment ${next.index} (${displayUsd(next.owed)})`}
        </button>
        <button type="button" className="btn btn--secondary" disabled={!wallet.isConnected || busy !== null} onClick={() => pay("payoff")} data-testid="repay-payoff">
          {busy === "payoff" ? "Paying off…" : "Pay off the loan"}
        </button>
      </div>
      <p className="small muted">Early payoff costs the principal outstanding plus the interest of the current period, with no penalty. The note is burned once it is paid.</p>
      {error && <p className="field__error" role="alert">{error}</p>}
    </div>
  );
}
