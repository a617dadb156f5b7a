import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { typedUsd } from "#domain/money";
import { LOAN_LIMITS, LOAN_MESSAGES, STANDARD_PURPOSES } from "#domain/schemas/loans";
import { Field } from "../../../components/Field";
import { serverFieldErrors, serverMessage } from "../../../lib/errors";
import { useRequestLoan, type LoanRequestPayload } from "../api/requestLoan";
import { useCanBorrow } from "./BorrowGate";
import { loanFieldErrors } from "./loanForm";
import { purposeText } from "../../../lib/format";

const EMPTY = { amount: "", purpose: "", interestRate: String(LOAN_LIMITS.defaultRatePercent), termMonths: String(LOAN_LIMITS.defaultTermMonths) };

/** The standard form: the server's rules and messages, checked before sending and answered after. */
export function LoanRequestForm({ onSubmitted }: { onSubmitted?: () => void }) {
  const request = useRequestLoan();
  const { ready } = useCanBorrow();
  const [values, setValues] = useState(EMPTY);
  const [withCollateral, setWithCollateral] = useState(false);
  const [collateral, setCollateral] = useState({ type: "", value: "", description: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});

  // "12,000" is what people type; the wire takes "12000" (domain/money.ts typedUsd).
  const payload = (): LoanRequestPayload => ({
    ...values,
    amount: typedUsd(values.amount),
    ...(withCollateral ? { collateral: { ...collateral, value: typedUsd(collateral.value) } } : {}),
  });
  const edit = (key: string, apply: () => void) => {
    apply();
    setErrors((e) => ({ ...e, [key]: "" }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = loanFieldErrors(payload());
    setErrors(found);
    if (Object.keys(found).length) {
      toast.error(LOAN_MESSAGES.formInvalid);
      return;
    }
    request.mutate(payload(), {
      onSuccess: ({ message }) => {
        toast.success(message || "Loan request submitted successfully");
        setValues(EMPTY);
        setCollateral({ type: "", value: "", description: "" });
        setWithCollateral(false);
        onSubmitted?.();
      },
      onError: (error) => {
        setErrors(serverFieldErrors(error));
        toast.error(serverMessage(error, LOAN_MESSAGES.submitFailed));
      },
    });
  };

  return (
    <form className="card stack" onSubmit={submit} noValidate data-testid="loan-form">
      <h2>Request a loan</h2>
      <Field
        label="Loan amount (USD)"
        name="amount"
        inputMode="decimal"
        value={values.amount}
        error={errors.amount}
        hint="From $1,000 to $1,000,000"
        onChange={(e) => edit("amount", () => setValues({ ...values, amount: e.target.value }))}
      />
      <div className={`field${errors.purpose ? " field--error" : ""}`}>
        <label htmlFor="loan-purpose">Purpose</label>
        <select id="loan-purpose" name="purpose" value={values.purpose} onChange={(e) => edit("purpose", () => setValues({ ...values, purpose: e.target.value }))}>
          <option value="">Select a purpose</option>
          {STANDARD_PURPOSES.map((p) => (
            <option key={p} value={p}>
              {purposeText(p)}
            </option>
          ))}
        </select>
        {errors.purpose && (
          <p className="field__error" role="alert">
            {errors.purpose}
          </p>
        )}
      </div>
      <div className="grid-2">
        <Field
          label="Interest rate (% a year)"
          name="interestRate"
          inputMode="decimal"
          value={values.interestRate}
          error={errors.interestRate}
          onChange={(e) => edit("interestRate", () => setValues({ ...values, interestRate: e.target.value }))}
        />
        <Field
          label="Term (months)"
          name="termMonths"
          inputMode="numeric"
          value={values.termMonths}
          error={errors.termMonths}
          onChange={(e) => edit("termMonths", () => setValues({ ...values, termMonths: e.target.value }))}
        />
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={withCollateral} onChange={(e) => setWithCollateral(e.target.checked)} /> Offer collateral
      </label>
      {withCollateral && (
        <div className="stack">
          <Field
            label="Collateral type"
            value={collateral.type}
            error={errors["collateral.type"] || errors["collateral.nft"]}
            onChange={(e) => edit("collateral.type", () => setCollateral({ ...collateral, type: e.target.value }))}
          />
          <Field
            label="Collateral value (USD)"
            inputMode="decimal"
            value={collateral.value}
            error={errors["collateral.value"]}
            onChange={(e) => edit("collateral.value", () => setCollateral({ ...collateral, value: e.target.value }))}
          />
          <Field
            label="Collateral description"
            value={collateral.description}
            error={errors["collateral.description"]}
            onChange={(e) => edit("collateral.description", () => setCollateral({ ...collateral, description: e.target.value }))}
          />
        </div>
      )}
      <button type="submit" className="btn btn--primary" disabled={request.isPending || !ready} title={ready ? undefined : "Approved KYC and a verified wallet are required"}>
        {request.isPending ? "Submitting…" : "Submit Loan Request"}
      </button>
    </form>
  );
}
