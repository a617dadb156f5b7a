import type { WireWalletCall } from "#domain/wire/collateral";
import WalletCallButton from "../../../lib/wallet/WalletCallButton";

/**
 * The one transaction that lets the loan note take the pledged NFT at origination: the API's call, said
 * in its words before the wallet is asked, sent from the verified wallet (the one that holds the piece).
 */
export default function ApproveEscrow({ call, onSent }: { call: WireWalletCall; onSent: (hash: string) => void }) {
  return (
    <div data-testid="escrow-approval">
      <WalletCallButton
        call={{ to: call.to as `0x${string}`, data: call.data as `0x${string}`, value: call.value }}
        words={{ confirm: "Confirm the escrow approval in your wallet…", done: "Escrow approved: the loan note may take the NFT when the loan is funded", failed: "The approval failed" }}
        label={{ idle: "Approve the escrow", busy: "Approving…" }}
        review={{
          title: "Approve the escrow",
          lines: [
            { label: "Your wallet sends", value: call.summary, testId: "escrow-review-call" },
            { label: "To", value: <code>{call.to}</code> },
            { label: "It costs", value: "gas only: no dollars move, and the NFT stays in your wallet until the loan is funded" },
          ],
          confirm: "Confirm approval",
        }}
        testId="approve-escrow"
        onSent={onSent}
      />
    </div>
  );
}
