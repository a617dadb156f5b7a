import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { formatUsdAmount, parseUsd } from "#domain/money";
import type { WireLoan } from "#domain/wire/loan";
import { Spinner } from "../../../components/Spinner";
import { useCollateralCheck } from "../../../lib/collateral/getCollateralCheck";
import { serverMessage } from "../../../lib/errors";
import { shortAddress, usd } from "../../../lib/format";
import { ltvText } from "../../../lib/nfts/collateralWords";
import { PledgedNftView } from "../../../lib/nfts/PledgedNftView";
import { useAppraiseCollateral } from "../api/appraiseCollateral";
import { loanToValueBps } from "#domain/loanToValue";
import { typedMicro } from "./loanToValue";

/**
 * The pledged NFT in an admin's review: the piece, whether the borrower's wallet still holds it and has
 * approved the escrow (read live from its collection while the request waits), the appraisal the admin enters and
 * the loan-to-value it gives. `principal` is the funding amount being decided, when it differs from the request.
 */
export function CollateralReview({ loan, principal, onAppraised }: { loan: WireLoan; principal?: string; onAppraised?: () => void }) {
  const nft = loan.collateral?.nft;
  const pending = loan.status === "pending";
  const check = useCollateralCheck(loan._id, Boolean(nft) && pending);
  const appraise = useAppraiseCollateral();
  const [typed, setTyped] = useState(nft?.appraisal ?? "");
  const [error, setError] = useState("");
  if (!nft) return null;

  const saved = check.data?.nft.appraisal ?? nft.appraisal;
  const savedMicro = saved ? parseUsd(saved) : null;
  const typedAmount = typedMicro(typed);
  const base = typedMicro(principal ?? "") ?? parseUsd(loan.principal ?? loan.amount);
  // While the admin types, the figure follows the typed appraisal; otherwise the saved one.
  const over = typedAmount !== null && typedAmount > 0n ? typedAmount : savedMicro;
  const preview = loanToValueBps(base, over);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError("");
    const appraisal = typedAmount !== null && typedAmount >= 0n ? formatUsdAmount(typedAmount) : typed.trim();
    appraise.mutate(
      { id: loan._id, appraisal },
      {
        onSuccess: ({ message }) => {
          toast.success(message || "Appraisal saved");
          void check.refetch();
          onAppraised?.();
        },
        onError: (e) => setError(serverMessage(e, "The appraisal could not be saved")),
      },
    );
  };

  const live = check.data;
  const shown = { ...(live?.nft ?? nft), appraisal: saved };
  return (
    <section className="stack collateral-review" data-testid="collateral-review">
      <h3 className="section-title">Collateral NFT</h3>
      <PledgedNftView nft={shown} />
      {pending &&
        (check.isPending ? (
          <p className="row gap-sm muted small" role="status">
            <Spinner /> Reading the NFT on-chain…
          </p>
        ) : check.isError || !live ? (
          <div className="alert alert--danger small" role="alert">
            {serverMessage(check.error, "The NFT could not be read on-chain")}{" "}
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => void check.refetch()}>
              Retry
            </button>
          </div>
        ) : (
          <dl className="details admin-summary" aria-label="Checked on-chain now">
            <div>
              <dt>Held by the borrower</dt>
              <dd data-testid="review-held" data-value={String(live.held)}>
                <span className={`badge badge--${live.held ? "success" : "danger"}`}>{live.held ? "Yes" : "No"}</span>
                {!live.held && live.owner ? (
                  <span className="muted small">
                    {" "}
                    now held by <code>{shortAddress(live.owner)}</code>
                  </span>
                ) : null}
              </dd>
            </div>
            <div>
              <dt>Escrow approved</dt>
              <dd data-testid="review-approved" data-value={String(live.approved)}>
                <span className={`badge badge--${live.approved ? "success" : "warning"}`}>{live.approved ? "Yes" : "Not yet"}</span>
              </dd>
            </div>
          </dl>
        ))}
      {pending ? (
        <form className="stack" onSubmit={submit} noValidate data-testid="appraisal-form">
          <div className={`field${error ? " field--error" : ""}`}>
            <label htmlFor={`appraisal-${loan._id}`}>Appraised value (USD)</label>
            <div className="row gap-sm appraisal-row">
              <input
                id={`appraisal-${loan._id}`}
                inputMode="decimal"
                value={typed}
                onChange={(e) => {
                  setTyped(e.target.value);
                  setError("");
                }}
                aria-invalid={Boolean(error) || undefined}
                aria-describedby={`appraisal-${loan._id}-note`}
              />
              <button type="submit" className="btn btn--secondary btn--sm" disabled={appraise.isPending || !typed.trim()}>
                {appraise.isPending ? "Saving…" : saved ? "Update appraisal" : "Save appraisal"}
              </button>
            </div>
            {error ? (
              <p className="field__error" role="alert" data-testid="appraisal-error">
                {error}
              </p>
            ) : null}
            <p className="field__hint" id={`appraisal-${loan._id}-note`}>
              The borrower estimated {usd(loan.collateral?.value)}. {saved ? `Saved: ${usd(saved)}.` : "Not appraised yet: the loan cannot be approved before."}
            </p>
          </div>
        </form>
      ) : null}
      <p className="small" data-testid="review-ltv">
        <strong>Loan-to-value:</strong> {preview !== null ? ltvText(preview)!.replace(/^LTV /, "") : "—"}
        <span className="muted">
          {" "}
          ({usd(formatUsdAmount(base))} over {over !== null ? usd(formatUsdAmount(over)) : "the appraisal"})
        </span>
      </p>
    </section>
  );
}
