import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { AUTH_MESSAGES, changePasswordFormSchema, passwordStrength } from "#domain/schemas/auth";
import { PasswordField } from "../../../components/Field";
import { serverMessage } from "../../../lib/errors";
import { PROFILE_TOAST } from "../../../lib/toast";
import { useChangePassword } from "../api/changePassword";

const EMPTY = { currentPassword: "", newPassword: "", confirmPassword: "" };

export function PasswordTab({ isWalletUser }: { isWalletUser: boolean }) {
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState("");
  const change = useChangePassword();
  const strength = passwordStrength(form.newPassword);
  const mismatch = form.confirmPassword.length > 0 && form.confirmPassword !== form.newPassword;

  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [key]: e.target.value }));
    setError("");
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = changePasswordFormSchema.safeParse(form);
    if (!parsed.success) {
      // The mismatch is the spec's first complaint when both are present.
      const issues = parsed.error.issues;
      const message = (issues.find((i) => i.message === AUTH_MESSAGES.newPasswordsDontMatch) ?? issues[0]).message;
      setError(message);
      toast.error(message, PROFILE_TOAST.error);
      return;
    }
    try {
      await change.mutateAsync({ currentPassword: parsed.data.currentPassword, newPassword: parsed.data.newPassword });
      toast.success("Password changed successfully!", PROFILE_TOAST.success);
      setForm(EMPTY);
    } catch (err) {
      const message = serverMessage(err, "Failed to change password");
      setError(message);
      toast.error(message, PROFILE_TOAST.error);
    }
  };

  if (isWalletUser) {
    return <p className="muted">This account signs in with its wallet and has no password to change.</p>;
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="stack" aria-label="Change password">
      <PasswordField label="Current password" name="currentPassword" autoComplete="current-password" value={form.currentPassword} onChange={set("currentPassword")} />
      <PasswordField
        label="New password"
        name="newPassword"
        autoComplete="new-password"
        value={form.newPassword}
        onChange={set("newPassword")}
        hint={
          form.newPassword ? (
            <div className="strength" data-testid="strength">
              <div className={`strength__bar strength__bar--${strength.label.toLowerCase()}`} aria-hidden="true">
                {[0, 1, 2, 3, 4].map((i) => (
                  <span key={i} className={i < strength.score ? "on" : ""} />
                ))}
              </div>
              <span>
                Password strength: <strong>{strength.label}</strong>
              </span>
            </div>
          ) : (
            "At least 8 characters; mix upper and lower case, digits and symbols for a strong password."
          )
        }
      />
      <PasswordField
        label="Confirm new password"
        name="confirmPassword"
        autoComplete="new-password"
        value={form.confirmPassword}
        onChange={set("confirmPassword")}
        error={mismatch ? "Passwords do not match" : undefined}
      />
      {error && (
        <div className="alert alert--danger" role="alert">
          <p>{error}</p>
        </div>
      )}
      <div>
        <button type="submit" className="btn btn--primary" disabled={change.isPending}>
          {change.isPending ? "Changing..." : "Change Password"}
        </button>
      </div>
    </form>
  );
}
