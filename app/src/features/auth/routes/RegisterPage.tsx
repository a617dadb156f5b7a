import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import toast from "react-hot-toast";
import { isAxiosError } from "axios";
import { registerFormSchema } from "#domain/schemas/auth";
import { Field, PasswordField } from "../../../components/Field";
import { fieldErrors } from "../../../components/zodErrors";
import { serverFieldErrors } from "../../../lib/errors";
import { useRuntimeConfig } from "../../../lib/config";
import { useRegister } from "../api/register";

type Role = "user" | "admin";
const EMPTY = {
  firstName: "",
  lastName: "",
  email: "",
  phone: "",
  street: "",
  city: "",
  state: "",
  zipCode: "",
  walletAddress: "",
  adminInviteCode: "",
  password: "",
  confirmPassword: "",
};
type FormState = typeof EMPTY;

const ROLE_CARDS = [
  ["user", "Regular User", "Borrow, invest in loan NFTs and manage your portfolio."],
  ["admin", "Administrator", "Review loans and KYC. Needs an invite code from the operator."],
] as const;

function registrationError(error: unknown): string {
  if (isAxiosError(error)) {
    if (!error.response) return "An unexpected error occurred";
    const body = error.response.data as { error?: unknown; message?: unknown } | undefined;
    if (typeof body?.error === "string" && body.error) return body.error;
    if (typeof body?.message === "string" && body.message) return body.message;
    return "An error occurred";
  }
  return "An unexpected error occurred";
}

export function RegisterPage() {
  const [role, setRole] = useState<Role>("user");
  const [form, setForm] = useState<FormState>(EMPTY);
  const [agree, setAgree] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const register = useRegister();
  // "Administrator" only where the operator opened admin sign-up (ADMIN_INVITE_CODE); until the config answers, not at all.
  const adminSignup = useRuntimeConfig().data?.adminSignup === true;
  const navigate = useNavigate();

  const set = (key: keyof FormState) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [key]: e.target.value }));
    setErrors((er) => ({ ...er, [key]: "" }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const hasAddress = Boolean(form.street || form.city || form.state || form.zipCode);
    const parsed = registerFormSchema.safeParse({
      firstName: form.firstName,
      lastName: form.lastName,
      email: form.email,
      phone: form.phone,
      role,
      address: hasAddress ? { street: form.street, city: form.city, state: form.state, zipCode: form.zipCode, country: "United States" } : undefined,
      walletAddress: form.walletAddress,
      adminInviteCode: role === "admin" ? form.adminInviteCode : undefined,
      password: form.password,
      confirmPassword: form.confirmPassword,
      agreeToTerms: agree,
    });
    if (!parsed.success) {
      const errs = fieldErrors(parsed.error);
      setErrors(errs);
      document.querySelector<HTMLElement>(`[name="${Object.keys(errs)[0]}"]`)?.focus();
      return;
    }
    const { confirmPassword: _c, agreeToTerms: _t, ...payload } = parsed.data;
    try {
      await register.mutateAsync(payload);
      toast.success(`Registration successful! Welcome to LoanMint, ${payload.firstName}!`);
      toast("Please login with your credentials to access your dashboard.", { icon: "🔐" });
      void navigate("/login", { replace: true });
    } catch (error) {
      const onFields = serverFieldErrors(error);
      setErrors(onFields);
      // An answer that names its fields is said there, once; anything else is a toast.
      if (Object.keys(onFields).length) document.querySelector<HTMLElement>(`[name="${Object.keys(onFields)[0]}"]`)?.focus();
      else toast.error(registrationError(error));
    }
  };

  const busy = register.isPending;
  return (
    <div className="auth-page auth-page--wide">
      <div className="auth-card auth-card--wide card">
        <div className="auth-card__head">
          <h1>Create your account</h1>
          <p className="muted">
            Already have an account? <Link to="/login">Sign in here</Link>
          </p>
        </div>
        <form onSubmit={(e) => void submit(e)} noValidate aria-label="Create your account">
          <fieldset className="form-section">
            <legend className="form-section__title">Account type</legend>
            <div className="type-cards" role="radiogroup">
              {ROLE_CARDS.filter(([value]) => value === "user" || adminSignup).map(([value, title, text]) => (
                <label key={value} className={`type-card${role === value ? " is-selected" : ""}`}>
                  <input type="radio" name="role" value={value} checked={role === value} onChange={() => setRole(value)} />
                  <strong>{title}</strong>
                  <span className="muted small">{text}</span>
                </label>
              ))}
            </div>
          </fieldset>

          <fieldset className="form-section">
            <legend className="form-section__title">
              <span className="form-section__num">1</span>Personal Information
            </legend>
            <div className="form-grid">
              <Field label="First name" name="firstName" autoComplete="given-name" value={form.firstName} onChange={set("firstName")} error={errors.firstName} />
              <Field label="Last name" name="lastName" autoComplete="family-name" value={form.lastName} onChange={set("lastName")} error={errors.lastName} />
              <Field label="Email" name="email" type="email" autoComplete="email" value={form.email} onChange={set("email")} error={errors.email} />
              <Field label="Phone" name="phone" type="tel" autoComplete="tel" value={form.phone} onChange={set("phone")} error={errors.phone} hint="Optional" />
            </div>
          </fieldset>

          <fieldset className="form-section">
            <legend className="form-section__title">
              <span className="form-section__num">2</span>Address Information
            </legend>
            <div className="form-grid">
              <Field className="span-2" label="Street" name="street" autoComplete="street-address" value={form.street} onChange={set("street")} error={errors.address} />
              <Field label="City" name="city" autoComplete="address-level2" value={form.city} onChange={set("city")} />
              <Field label="State" name="state" autoComplete="address-level1" value={form.state} onChange={set("state")} />
              <Field label="ZIP code" name="zipCode" autoComplete="postal-code" value={form.zipCode} onChange={set("zipCode")} />
              <Field label="Country" name="country" value="United States" readOnly />
            </div>
          </fieldset>

          <fieldset className="form-section">
            <legend className="form-section__title">
              <span className="form-section__num">3</span>Crypto Wallet (Optional)
            </legend>
            <Field
              label="Wallet address"
              name="walletAddress"
              placeholder="0x…"
              autoComplete="off"
              spellCheck={false}
              value={form.walletAddress}
              onChange={set("walletAddress")}
              error={errors.walletAddress}
              hint="Only a hint: you link a wallet for real by signing a message from your profile."
            />
          </fieldset>

          {role === "admin" && (
            <fieldset className="form-section">
              <legend className="form-section__title">
                <span className="form-section__num">★</span>Administrator access
              </legend>
              <Field
                label="Admin invite code"
                name="adminInviteCode"
                autoComplete="off"
                value={form.adminInviteCode}
                onChange={set("adminInviteCode")}
                error={errors.adminInviteCode}
                hint="Given to you by the platform operator."
              />
            </fieldset>
          )}

          <fieldset className="form-section">
            <legend className="form-section__title">
              <span className="form-section__num">4</span>Security
            </legend>
            <div className="form-grid">
              <PasswordField label="Password" name="password" autoComplete="new-password" value={form.password} onChange={set("password")} error={errors.password} />
              <PasswordField
                label="Confirm password"
                name="confirmPassword"
                autoComplete="new-password"
                value={form.confirmPassword}
                onChange={set("confirmPassword")}
                error={errors.confirmPassword}
              />
            </div>
          </fieldset>

          <div className={`field${errors.agreeToTerms ? " field--error" : ""}`}>
            <label className="checkbox">
              <input
                type="checkbox"
                name="agreeToTerms"
                checked={agree}
                onChange={(e) => {
                  setAgree(e.target.checked);
                  setErrors((er) => ({ ...er, agreeToTerms: "" }));
                }}
              />
              <span>
                I agree to the <Link to="/legal#terms">Terms of Service</Link> and <Link to="/legal#privacy">Privacy Policy</Link>
              </span>
            </label>
            {errors.agreeToTerms && (
              <p className="field__error" role="alert">
                {errors.agreeToTerms}
              </p>
            )}
          </div>

          <button type="submit" className="btn btn--primary btn--block btn--lg register__submit" disabled={busy}>
            {busy ? "Creating Account..." : role === "admin" ? "Create Admin Account" : "Create User Account"}
          </button>
        </form>
      </div>
    </div>
  );
}
