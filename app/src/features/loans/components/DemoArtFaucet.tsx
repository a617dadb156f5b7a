import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { encodeFunctionData } from "viem";
import { demoCollectionAbi } from "#domain/abis";
import { useRuntimeConfig } from "../../../lib/config";
import { txProgress } from "../../../lib/txProgress";
import { waitForMirror } from "../../../lib/nfts/waitForMirror";
import { WalletBar } from "../../../lib/wallet/WalletBar";
import { walletErrorMessage, WalletStepError } from "../../../lib/wallet/txError";
import { useWalletSender } from "../../../lib/wallet/useWalletSender";
import { loanKeys } from "../api/keys";

/**
 * Local chain only: the demo collection's faucet gives the verified wallet a piece of on-chain art to pledge (one per
 * wallet per cooldown), so a fresh dev wallet can try NFT collateral. The piece appears in the picker once the
 * API's mirror has indexed the mint.
 */
export default function DemoArtFaucet({ collection }: { collection: `0x${string}` }) {
  const queryClient = useQueryClient();
  const wallet = useWalletSender({ requireVerifiedWallet: true, afterReceipt: (receipt) => waitForMirror(receipt.blockNumber) });
  const config = useRuntimeConfig().data;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const mint = async () => {
    setBusy(true);
    setError("");
    const progress = txProgress(config);
    let hash: string | undefined;
    try {
      if (!config) throw new WalletStepError("The network configuration is not loaded yet");
      progress.step("Confirm the demo art mint in your wallet…");
      hash = await wallet.send({ to: collection, data: encodeFunctionData({ abi: demoCollectionAbi, functionName: "faucet" }), value: "0", chainId: config.chainId });
      progress.done("A piece of LoanMint Demo Art is in your wallet", hash);
      await queryClient.invalidateQueries({ queryKey: loanKeys.walletNfts });
    } catch (e) {
      const message = walletErrorMessage(e, "The mint failed");
      setError(message);
      progress.fail(message, (e as WalletStepError)?.hash ?? hash);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack" data-testid="demo-art-faucet">
      <p className="small">On this local test chain, the demo collection gives your verified wallet a piece to try with (free, gas only).</p>
      <WalletBar />
      <div>
        <button type="button" className="btn btn--secondary" disabled={!wallet.isConnected || wallet.mismatch || busy} onClick={() => void mint()} data-testid="mint-demo-art">
          {busy ? "Minting…" : "Mint a demo piece"}
        </button>
      </div>
      {error && <p className="field__error" role="alert">{error}</p>}
    </div>
  );
}
