import { useMemo, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import toast from "react-hot-toast";
import { displayUsd, parseUsd, typedUsd } from "#domain/money";
import { monthlyPayment } from "#domain/schedule";
import { LOAN_MESSAGES } from "#domain/schemas/loans";
import { Field } from "../../../components/Field";
import { PageHeader } from "../../../components/PageHeader";
import { serverFieldErrors, serverMessage } from "../../../lib/errors";
import { useRequestLoan, type LoanRequestPayload } from "../api/requestLoan";
import { BorrowGate, useCanBorrow } from "../components/BorrowGate";
import { loanFieldErrors } from "../components/loanForm";
import { COLLATERAL_RATIO_PERCENT, COLLATERAL_TYPES, WIZARD_DEFAULT_RATE, WIZARD_PURPOSES, WIZARD_STEPS, WIZARD_TERMS } from "../components/wizardOptions";
import { NftPicker, type PickedNft } from "../components/NftPicker";
import { pledgeDescription } from "../../../lib/nfts/collateralWords";
import "../loans.css";

const micro = (text: string) => {
  try {
    return parseUsd(typedUsd(text));
  } catch {
    return null;
  }
};

/** The three-step wizard: Next only when the step is valid, Previous disabled on step 1, submission on step 3. */
export function RequestLoanPage() {
  const navigate = useNavigate();
  const request = useRequestLoan();
  const { ready } = useCanBorrow();
  const [step, setStep] = useState(0);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [form, setForm] = useState({ amount: "", purpose: "", interestRate: WIZARD_DEFAULT_RATE, termMonths: "12", collateralType: "nft", collateralValue: "", collateralDescription: "" });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  // The pledged ERC-721 when the collateral type is "nft"; its value stays the borrower's estimate.
  const [nft, setNft] = useState<PickedNft | null>(null);
  const pledging = form.collateralType === "nft";

  const payload: LoanRequestPayload = {
    amount: typedUsd(form.amount),
    purpose: form.purpose,
    interestRate: form.interestRate,
    termMonths: form.termMonths,
    collateral: { type: form.collateralType, value: typedUsd(form.collateralValue), description: form.collateralDescription, ...(pledging && nft ? { nft } : {}) },
  };
  const errors: Record<string, string> = { ...loanFieldErrors(payload) };
  for (const [key, message] of Object.entries(serverErrors)) if (message) errors[key] = message;
  const stepErrors = (i: number) => Object.fromEntries(Object.entries(errors).filter(([k]) => (WIZARD_STEPS[i].fields as readonly string[]).includes(k)));
  const valid = Object.keys(stepErrors(step)).length === 0;
  const shown = (key: string) => (touched[key] ? errors[key] : undefined);

  const set = (key: keyof typeof form, field: string) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
    setServerErrors((e) => ({ ...e, [field]: "", collateral: "" }));
  };

  /** A pick fills the description (still editable); the value is left to the borrower. */
  const pick = (piece: Parameters<typeof pledgeDescription>[0]) => {
    setNft({ collection: piece.collection, tokenId: piece.tokenId });
    set("collateralDescription", "collateral.description")(pledgeDescription(piece));
    setTouched((t) => ({ ...t, "collateral.nft": true }));
    setServerErrors((e) => ({ ...e, "collateral.nft": "", collateral: "" }));
  };

  // No payment is shown for terms the request would be refused with (a 75% rate, a 500 loan).
  const termsValid = !errors.amount && !errors.interestRate && !errors.termMonths;
  const estimate = useMemo(() => {
    if (!termsValid) return null;
    const principal = micro(form.amount);
    const rate = Math.round(Number(form.interestRate) * 100);
    const term = Number(form.termMonths);
    if (!principal || !(rate > 0) || !(term > 0) || !Number.isInteger(term)) return null;
    const payment = monthlyPayment(principal, rate, term);
    return { principal, payment, total: payment * BigInt(term) };
  }, [termsValid, form.amount, form.interestRate, form.termMonths]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step < 2) return;
    if (Object.keys(errors).length) {
      setTouched(Object.fromEntries(Object.keys(errors).map((k) => [k, true])));
      toast.error(LOAN_MESSAGES.formInvalid);
      return;
    }
    request.mutate(payload, {
      onSuccess: ({ message }) => {
        toast.success(message || "Loan request submitted successfully");
        void navigate("/loans/my-loans");
      },
      onError: (error) => {
        const message = serverMessage(error, LOAN_MESSAGES.submitFailed);
        const fields = serverFieldErrors(error);
        // A refused pledge (not held, already pledged, collection not accepted) is said under the picker too.
        setServerErrors(pledging && !Object.keys(fields).length ? { collateral: message } : fields);
        toast.error(message);
      },
    });
  };

  const minCollateral = estimate ? (estimate.principal * COLLATERAL_RATIO_PERCENT) / 100n : null;

  return (
    <div className="container page narrow-lg">
      <PageHeader
        title="Request a Loan"
        subtitle="Three steps: the loan, its terms, and your collateral."
        actions={
          <Link to="/loans" className="btn btn--ghost">
            Standard form
          </Link>
        }
      />
      <BorrowGate />
      <form className="card stack mt" onSubmit={submit} noValidate data-testid="loan-wizard">
        <ol className="wizard-steps" aria-label="Steps">
          {WIZARD_STEPS.map((s, i) => (
            <li key={s.title} className={i === step ? "is-current" : i < step ? "is-done" : ""} aria-current={i === step ? "step" : undefined}>
              {i + 1}. {s.title}
            </li>
          ))}
        </ol>

        {step === 0 && (
          <fieldset className="stack" style={{ border: 0, padding: 0 }}>
            <legend className="sr-only">Loan Details</legend>
            <Field
              label="Loan amount (USD)"
              name="amount"
              inputMode="decimal"
              value={form.amount}
              error={shown("amount")}
              hint="From $1,000 to $1,000,000"
              onChange={(e) => set("amount", "amount")(e.target.value)}
            />
            <div className={`field${shown("purpose") ? " field--error" : ""}`}>
              <label htmlFor="wizard-purpose">Purpose</label>
              <select id="wizard-purpose" name="purpose" value={form.purpose} onChange={(e) => set("purpose", "purpose")(e.target.value)}>
                <option value="">Select a purpose</option>
                {WIZARD_PURPOSES.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
              {shown("purpose") && (
                <p className="field__error" role="alert">
                  {shown("purpose")}
                </p>
              )}
            </div>
          </fieldset>
        )}

        {step === 1 && (
          <fieldset className="stack" style={{ border: 0, padding: 0 }}>
            <legend className="sr-only">Terms</legend>
            <Field
              label="Interest rate (% a year)"
              name="interestRate"
              inputMode="decimal"
              value={form.interestRate}
              error={shown("interestRate")}
              hint="From 0.1% to 50%"
              onChange={(e) => set("interestRate", "interestRate")(e.target.value)}
            />
            <div className={`field${shown("termMonths") ? " field--error" : ""}`}>
              <label htmlFor="wizard-term">Term</label>
              <select id="wizard-term" name="termMonths" value={form.termMonths} onChange={(e) => set("termMonths", "termMonths")(e.target.value)}>
                {WIZARD_TERMS.map((t) => (
                  <option key={t} value={t}>
                    {t} {t === 1 ? "month" : "months"}
                  </option>
                ))}
              </select>
              {shown("termMonths") && (
                <p className="field__error" role="alert">
                  {shown("termMonths")}
                </p>
              )}
            </div>
            {estimate && (
              <p className="small" data-testid="wizard-estimate">
                Monthly payment <strong>{displayUsd(estimate.payment)}</strong>; about <strong>{displayUsd(estimate.total)}</strong> repaid in total (monthly amortisation, no prepayment penalty).
              </p>
            )}
          </fieldset>
        )}

        {step === 2 && (
          <fieldset className="stack" style={{ border: 0, padding: 0 }}>
            <legend className="sr-only">Collateral</legend>
            <div className="field">
              <label htmlFor="wizard-collateral-type">Collateral type</label>
              <select
                id="wizard-collateral-type"
                value={form.collateralType}
                onChange={(e) => {
                  set("collateralType", "collateral.type")(e.target.value);
                  if (e.target.value !== "nft") setNft(null);
                }}
              >
                {COLLATERAL_TYPES.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
            </div>
            {pledging && <NftPicker picked={nft} onPick={pick} error={shown("collateral.nft") ?? errors.collateral} />}
            <Field
              label="Collateral value (USD)"
              name="collateralValue"
              inputMode="decimal"
              value={form.collateralValue}
              error={shown("collateral.value")}
              hint={`${pledging ? "Your estimate of the NFT's value; an administrator appraises it. " : ""}${minCollateral ? `Collateral should be worth at least 150% of the loan: ${displayUsd(minCollateral)}` : "Collateral should be worth at least 150% of the loan"}`}
              onChange={(e) => set("collateralValue", "collateral.value")(e.target.value)}
            />
            <div className={`field${shown("collateral.description") ? " field--error" : ""}`}>
              <label htmlFor="wizard-collateral-description">Collateral description</label>
              <textarea id="wizard-collateral-description" rows={3} value={form.collateralDescription} onChange={(e) => set("collateralDescription", "collateral.description")(e.target.value)} />
              {shown("collateral.description") ? (
                <p className="field__error" role="alert">
                  {shown("collateral.description")}
                </p>
              ) : (
                <p className="field__hint">What it is, where it is held and how its value was set.</p>
              )}
            </div>
          </fieldset>
        )}

        <div className="row gap-sm" style={{ justifyContent: "space-between" }}>
          <button type="button" className="btn btn--ghost" disabled={step === 0} onClick={() => setStep((s) => s - 1)}>
            Previous
          </button>
          {step < 2 ? (
            <button type="button" className="btn btn--primary" disabled={!valid} onClick={() => setStep((s) => s + 1)}>
              Next
            </button>
          ) : (
            <button type="submit" className="btn btn--primary" disabled={!valid || request.isPending || !ready}>
              {request.isPending ? "Submitting…" : "Submit Request"}
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
