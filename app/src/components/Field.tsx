import { useId, useState, type InputHTMLAttributes, type ReactNode } from "react";

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

export function Field({ label, error, hint, id, className, ...input }: FieldProps) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <div className={`field${error ? " field--error" : ""}${className ? ` ${className}` : ""}`}>
      <label htmlFor={fieldId}>{label}</label>
      <input id={fieldId} aria-invalid={Boolean(error) || undefined} aria-describedby={error ? `${fieldId}-error` : undefined} {...input} />
      {error ? (
        <p className="field__error" id={`${fieldId}-error`} role="alert">
          {error}
        </p>
      ) : hint ? (
        <p className="field__hint">{hint}</p>
      ) : null}
    </div>
  );
}

/** A password input with its show/hide toggle. */
export function PasswordField({ label, error, hint, id, className, ...input }: FieldProps) {
  const auto = useId();
  const fieldId = id ?? auto;
  const [shown, setShown] = useState(false);
  return (
    <div className={`field${error ? " field--error" : ""}${className ? ` ${className}` : ""}`}>
      <label htmlFor={fieldId}>{label}</label>
      <div className="field__with-action">
        <input id={fieldId} type={shown ? "text" : "password"} aria-invalid={Boolean(error) || undefined} aria-describedby={error ? `${fieldId}-error` : undefined} {...input} />
        <button type="button" className="field__action" onClick={() => setShown((s) => !s)} aria-label={shown ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`} aria-pressed={shown}>
          {shown ? "Hide" : "Show"}
        </button>
      </div>
      {error ? (
        <p className="field__error" id={`${fieldId}-error`} role="alert">
          {error}
        </p>
      ) : hint ? (
        <div className="field__hint">{hint}</div>
      ) : null}
    </div>
  );
}
