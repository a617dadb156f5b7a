import { http, type Envelope } from "../../../lib/http";

export interface WalletCall {
  to: `0x${string}`;
  data: `0x${string}`;
  value: string;
  chainId: number;
}

export interface PermitRequest {
  domain: { name: string; version: string; chainId: number; verifyingContract: `0x${string}` };
  types: { Permit: { name: string; type: string }[] };
  primaryType: "Permit";
  message: { owner: `0x${string}`; spender: `0x${string}`; value: string; nonce: string; deadline: string };
}

export interface RepaymentAnswer {
  installmentNumber: number;
  amount: string;
  amountTaken: string;
  capped: boolean;
  schedule: { monthlyPayment: string; installmentsPaid: number; nextInstallment: number; nextDueDate: string; amountDueNow: string; payoffAmount: string; outstandingBalance: string; totalRepaid: string };
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
