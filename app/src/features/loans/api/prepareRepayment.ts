import { http, type Envelope } from "../../../lib/http";
import type { PermitRequest, WalletCall } from "../../../lib/wallet/walletCall";

export interface RepaymentAnswer {
  installmentNumber: number;
  amount: string;
  amountTaken: string;
  capped: boolean;
  /** What of the amount pays late fees (taken first) and what goes to the installments. */
  lateFeesTaken: string;
  installmentsTaken: string;
  schedule: {
    monthlyPayment: string;
    installmentsPaid: number;
    nextInstallment: number;
    nextDueDate: string;
    installmentsPastDue: string;
    lateFeesOwed: string;
    lateFeeCount: number;
    amountDueNow: string;
    payoffAmount: string;
    outstandingBalance: string;
    totalRepaid: string;
  };
  permit: PermitRequest | null;
  deadline: string;
  call: WalletCall | null;
}

/**
 * PUT /loans/{id}/repayment {amount, installmentNumber}: first without a signature (the permit to sign), then with
 * it and the same deadline (the repayWithPermit call to send).
 */
export async function prepareRepayment(id: string, body: { amount: string; installmentNumber?: number; walletAddress?: string; signature?: string; deadline?: string }) {
  const { data } = await http.put<Envelope<RepaymentAnswer>>(`/loans/${encodeURIComponent(id)}/repayment`, body);
  return data.data;
}
