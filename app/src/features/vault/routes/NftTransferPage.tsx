import { useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import toast from "react-hot-toast";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { useRuntimeConfig } from "../../../lib/config";
import { serverMessage } from "../../../lib/errors";
import { vaultMoveDone } from "../components/vaultMoveDone";
import { useSession } from "../../../lib/session";
import { kycStatusOf } from "../../../lib/user";
import { WithWallet } from "../../../lib/wallet/WithWallet";
import { NFT_MESSAGES, vaultTransferFormSchema } from "#domain/schemas/nfts";
import { getPortfolio } from "../../../lib/nfts/getPortfolio";
import { marketplaceKeys } from "../../../lib/nfts/keys";
import type { NftRecord, PortfolioResult } from "../../../lib/nfts/types";
import { useNoteWallet } from "../../../lib/nfts/useNoteWallet";
import { prepareTransfer } from "../api/prepareTransfer";
import { dateText, percentText, shortAddress, usd } from "../../../lib/format";
import { ReviewStep } from "../../../lib/wallet/ReviewStep";
import { txProgress } from "../../../lib/txProgress";
import { walletErrorMessage, WalletStepError } from "../../../lib/wallet/txError";
import { WalletBar } from "../../../lib/wallet/WalletBar";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import { MoveReason } from "../components/MoveReason";
import { PledgedNftView } from "../../../lib/nfts/PledgedNftView";
import "../../../lib/nfts/nfts.css";

type Tab = "deposit" | "withdraw";

/** Spec 02 "NFT Vault Transfer": real deposits and withdrawals from the verified wallet, the reason kept with each move. */
export function NftTransferPage() {
  const kyc = kycStatusOf(useSession((s) => s.user));
  // The NFT portfolio is fetched only when KYC is approved.
  const portfolio = useQuery({ queryKey: marketplaceKeys.portfolio, queryFn: getPortfolio, enabled: kyc === "approved", retry: 3 });
  return (
    <div className="container page stack">
      <PageHeader
        title="NFT Vault Transfer"
        subtitle="Deposit notes into the vault and withdraw them back. Repayments on a vaulted note still reach you."
        actions={
          <Link to="/portfolio" className="btn btn--ghost">
            My Portfolio
          </Link>
        }
      />
      {kyc !== "approved" && (
        <div className="alert alert--warning" role="status" data-testid="vault-kyc">
          <p>
            Vault transfers are available once your KYC is approved. <Link to="/kyc">Go to KYC</Link>
          </p>
        </div>
      )}
      {portfolio.isError ? (
        <div className="alert alert--danger" role="alert">
          <p>{NFT_MESSAGES.portfolioFailed}</p>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void portfolio.refetch()}>
            Refresh
          </button>
        </div>
      ) : kyc === "approved" && !portfolio.data ? (
        <div className="center">
          <Spinner label="Loading your notes" />
        </div>
      ) : (
        <div className="mk-two">
          <WithWallet>
            <TransferForm portfolio={portfolio.data} disabled={kyc !== "approved"} />
          </WithWallet>
          <aside className="card stack" aria-labelledby="vault-info">
            <h2 id="vault-info">About the vault</h2>
            <ul className="small">
              <li>Only you, the depositor, can withdraw a note you deposited.</li>
              <li>Repayments on a vaulted note are credited to you, as if you held it.</li>
              <li>A listed note stops being for sale when it moves; list it again after withdrawing.</li>
              <li>Each move is one transaction from your verified wallet; the reason you give travels with it on-chain.</li>
            </ul>
          </aside>
        </div>
      )}
      <History moves={portfolio.data?.vaultHistory ?? []} />
    </div>
  );
}

function TransferForm({ portfolio, disabled }: { portfolio: PortfolioResult | undefined; disabled: boolean }) {
  const config = useRuntimeConfig().data;
  const wallet = useNoteWallet();
  const queryClient = useQueryClient();
  const verified = useSession((s) => s.user?.walletAddress ?? "");
  // A note's "Move to vault" / "withdraw it" links arrive with the note and the move chosen.
  const [params] = useSearchParams();
  const [tab, setTab] = useState<Tab>(params.get("move") === "withdraw" ? "withdraw" : "deposit");
  const [tokenId, setTokenId] = useState(params.get("tokenId") ?? "");
  const [walletAddress, setWalletAddress] = useState(verified);
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const nfts = useMemo(() => portfolio?.nfts ?? [], [portfolio]);
  // Deposit lists notes not sold (here: held in the wallet and alive); withdraw only active vaulted ones.
  const choices = useMemo(() => (tab === "deposit" ? nfts.filter((n) => !n.inVault && n.marketplaceStatus !== "repaid") : nfts.filter((n) => n.inVault && n.isActive)), [nfts, tab]);
  const selected: NftRecord | undefined = choices.find((n) => n.tokenId === tokenId);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = vaultTransferFormSchema.safeParse({ nftTokenId: tokenId, transferType: tab, walletAddress: tab === "withdraw" ? walletAddress : undefined, reason: reason || undefined });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setReviewing(true);
  };

  const send = async () => {
    const vault = config?.contracts?.vault;
    if (!vault) return;
    setReviewing(false);
    setBusy(true);
    const progress = txProgress(config);
    try {
      await wallet.ready();
      const body = tab === "deposit" ? { fromAddress: verified, toAddress: vault, reason: reason || undefined } : { fromAddress: vault, toAddress: walletAddress.trim(), reason: reason || undefined };
      const answer = await prepareTransfer(tokenId, body);
      progress.step(tab === "deposit" ? "Confirm the deposit in your wallet…" : "Confirm the withdrawal in your wallet…");
      const hash = await wallet.send(answer.call);
      progress.done(vaultMoveDone(tab, tokenId, tab === "deposit" ? vault : walletAddress.trim()), hash);
      setTokenId("");
      setReason("");
      await queryClient.invalidateQueries({ queryKey: marketplaceKeys.portfolio });
      await queryClient.invalidateQueries({ queryKey: marketplaceKeys.all });
    } catch (e) {
      const message = (e as { isAxiosError?: boolean })?.isAxiosError
        ? serverMessage(e, NFT_MESSAGES.transferFailed)
        : e instanceof WalletStepError
          ? e.message
          : walletErrorMessage(e, NFT_MESSAGES.transferFailed);
      progress.fail(message, (e as WalletStepError)?.hash);
      toast.error(NFT_MESSAGES.transferFailed, { id: "transfer-failed" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card stack" onSubmit={(e) => void submit(e)} aria-label="Vault transfer" data-testid="vault-form" noValidate>
      <div className="segmented" role="radiogroup" aria-label="Transfer type">
        {(["deposit", "withdraw"] as Tab[]).map((t) => (
          <label key={t}>
            <input
              type="radio"
              name="vault-tab"
              checked={tab === t}
              onChange={() => {
                setTab(t);
                setTokenId("");
                setErrors({});
                setReviewing(false);
              }}
            />{" "}
            {t === "deposit" ? "Deposit" : "Withdraw"}
          </label>
        ))}
      </div>
      <WalletBar />
      <fieldset disabled={disabled || busy} className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
        <div className={`field${errors.nftTokenId ? " field--error" : ""}`}>
          <label htmlFor="vault-nft">NFT</label>
          <select
            id="vault-nft"
            value={tokenId}
            onChange={(e) => {
              setTokenId(e.target.value);
              setReviewing(false);
              setErrors((x) => ({ ...x, nftTokenId: "" }));
            }}
          >
            <option value="">{choices.length ? "Select a note" : tab === "deposit" ? "No notes in your wallet" : "No notes in the vault"}</option>
            {choices.map((n) => (
              <option key={n.tokenId} value={n.tokenId}>
                Note #{n.tokenId} — {usd(n.metadata.loanDetails.amount)} at {percentText(n.metadata.loanDetails.interestRate)}
              </option>
            ))}
          </select>
          {errors.nftTokenId && (
            <p className="field__error" role="alert">
              {errors.nftTokenId}
            </p>
          )}
        </div>
        {selected && (
          <div className="alert alert--info" data-testid="selected-nft">
            <div>
              <strong>Note #{selected.tokenId}</strong> · {usd(selected.outstandingBalance)} outstanding · {selected.metadata.loanDetails.termMonths} months
              {selected.marketplaceStatus === "listed" && <p className="small">Listed at {usd(selected.listingPrice)}: depositing ends the listing.</p>}
              {/* The escrowed NFT goes with the note: its depositor may claim it after a default, from the note's page. */}
              {selected.collateral && (
                <div style={{ marginTop: 8 }}>
                  <PledgedNftView nft={selected.collateral} compact />
                </div>
              )}
            </div>
          </div>
        )}
        {tab === "withdraw" && (
          <div className={`field${errors.walletAddress ? " field--error" : ""}`}>
            <label htmlFor="vault-to">Withdraw to wallet address</label>
            <input
              id="vault-to"
              value={walletAddress}
              onChange={(e) => {
                setWalletAddress(e.target.value);
                setErrors((x) => ({ ...x, walletAddress: "" }));
              }}
            />
            {errors.walletAddress && (
              <p className="field__error" role="alert">
                {errors.walletAddress}
              </p>
            )}
          </div>
        )}
        <div className="field">
          <label htmlFor="vault-reason">Reason (optional)</label>
          <input id="vault-reason" maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
        </div>
        {!reviewing && (
          <div>
            <button type="submit" className="btn btn--primary" disabled={!wallet.isConnected || wallet.mismatch}>
              {busy ? "Sending…" : tab === "deposit" ? "Deposit to vault" : "Withdraw from vault"}
            </button>
          </div>
        )}
      </fieldset>
      {reviewing && selected && (
        <ReviewStep
          title={tab === "deposit" ? "Review the deposit" : "Review the withdrawal"}
          lines={[
            { label: "Note", value: `#${selected.tokenId}, ${usd(selected.outstandingBalance)} of principal outstanding`, testId: "review-note" },
            {
              label: "From",
              value:
                tab === "deposit" ? (
                  <>
                    your wallet <code>{shortAddress(verified)}</code>
                  </>
                ) : (
                  "the vault"
                ),
            },
            { label: "To", value: tab === "deposit" ? "the vault (only you can withdraw it)" : <code>{shortAddress(walletAddress.trim())}</code>, testId: "review-to" },
            { label: "You pay", value: "nothing: the note moves, no test dollars", testId: "review-amount" },
            {
              label: "Your wallet sends",
              value:
                tab === "deposit"
                  ? `one transaction that moves note #${selected.tokenId} into the vault contract: gas only`
                  : `one transaction to the vault contract that moves note #${selected.tokenId} out: gas only`,
              testId: "review-wallet",
            },
          ]}
          payer={wallet.address}
          confirmLabel={tab === "deposit" ? "Confirm the deposit" : "Confirm the withdrawal"}
          onConfirm={() => void send()}
          onCancel={() => setReviewing(false)}
        >
          {tab === "deposit" && selected.marketplaceStatus === "listed" && <p className="small">Depositing ends its listing at {usd(selected.listingPrice)}.</p>}
        </ReviewStep>
      )}
    </form>
  );
}

function History({ moves }: { moves: PortfolioResult["vaultHistory"] }) {
  return (
    <section className="card stack" aria-labelledby="vault-history">
      <h2 id="vault-history">Transfer history</h2>
      {moves.length === 0 ? (
        <p className="muted small">No vault moves yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table table--cards" data-testid="vault-history">
            <thead>
              <tr>
                <th>Date</th>
                <th>Move</th>
                <th>Note</th>
                <th>Reason</th>
                <th>Transaction</th>
              </tr>
            </thead>
            <tbody>
              {moves.map((m) => (
                <tr key={m.txHash + m.kind}>
                  <td data-label="Date">{dateText(m.time)}</td>
                  <td data-label="Move">{m.kind === "deposit" ? "Deposit" : "Withdrawal"}</td>
                  <td data-label="Note">
                    <Link to={`/marketplace/nft/${m.tokenId}`}>#{m.tokenId}</Link>
                  </td>
                  <td data-label="Reason">
                    <MoveReason hash={m.txHash} />
                  </td>
                  <td data-label="Transaction">
                    <ExplorerLink kind="tx" id={m.txHash} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
