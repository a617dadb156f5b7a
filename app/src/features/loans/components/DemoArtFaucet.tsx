import { useQueryClient } from "@tanstack/react-query";
import { encodeFunctionData } from "viem";
import { demoCollectionAbi } from "#domain/abis";
import { waitForMirror } from "../../../lib/nfts/waitForMirror";
import WalletCallButton from "../../../lib/wallet/WalletCallButton";
import { loanKeys } from "../api/keys";

/**
 * Local chain only: the demo collection's faucet gives the verified wallet a piece of on-chain art to pledge (one per
 * wallet per cooldown), so a fresh dev wallet can try NFT collateral. The piece appears in the picker once the
 * API's mirror has indexed the mint.
 */
export default function DemoArtFaucet({ collection }: { collection: `0x${string}` }) {
  const queryClient = useQueryClient();
  return (
    <div className="stack" data-testid="demo-art-faucet">
      <p className="small">On this local test chain, the demo collection gives your verified wallet a piece to try with (free, gas only).</p>
      <WalletCallButton
        call={{ to: collection, data: encodeFunctionData({ abi: demoCollectionAbi, functionName: "faucet" }), value: "0" }}
        words={{ confirm: "Confirm the demo art mint in your wallet…", done: "A piece of LoanMint Demo Art is in your wallet", failed: "The mint failed" }}
        label={{ idle: "Mint a demo piece", busy: "Minting…" }}
        review={{
          title: "Mint a demo piece",
          lines: [
            { label: "Your wallet sends", value: "one transaction to the demo collection's faucet, which mints a piece of LoanMint Demo Art to it" },
            { label: "To", value: <code>{collection}</code> },
            { label: "It costs", value: "gas only (test ETH): the piece is free" },
          ],
          confirm: "Confirm mint",
        }}
        testId="mint-demo-art"
        className="btn btn--secondary"
        afterReceipt={(receipt) => waitForMirror(receipt.blockNumber)}
        onSent={() => void queryClient.invalidateQueries({ queryKey: loanKeys.walletNfts })}
      />
    </div>
  );
}
