import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import toast from "react-hot-toast";
import { loginFormSchema } from "../../../../../domain/schemas/auth";
import { Field, PasswordField } from "../../../components/Field";
import { fieldErrors } from "../../../components/zodErrors";
import { isNetworkError, serverMessage } from "../../../lib/errors";
import { homeFor, useSession } from "../../../lib/session";
import { useLogin } from "../api/login";

type UserType = "user" | "admin";

export function LoginForm() {
  const [userType, setUserType] = useState<UserType>("user");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState("");
  const login = useLogin();
  const setSession = useSession((s) => s.setSession);
  const navigate = useNavigate();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError("");
    const parsed = loginFormSchema.safeParse({ email, password, userType });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    try {
      const { user, token } = await login.mutateAsync({ email: parsed.data.email, password: parsed.data.password });
      // "Sign in as Admin" is the client's choice: an account that is not an admin is refused, no session kept.
      if (parsed.data.userType === "admin" && user.role !== "admin") {
        setFormError("Access denied");
        toast.error("Access denied");
        return;
      }
      setSession(user, token);
      toast.success(`Welcome back, ${user.firstName || "User"}!`);
      navigate(homeFor(user), { replace: true });
    } catch (error) {
      const message = isNetworkError(error) ? "Login failed. Please try again." : serverMessage(error, "Login failed");
      setFormError(message);
      toast.error(message);
    }
  };

  const busy = login.isPending;
  return (
    <form onSubmit={submit} noValidate className="stack" aria-label="Sign in">
      <div>
        <span className="label" id="login-type">Sign in as</span>
        <div className="segmented" role="radiogroup" aria-labelledby="login-type">
          {(["user", "admin"] as const).map((t) => (
            <label key={t}>
              <input type="radio" name="userType" value={t} checked={userType === t} onChange={() => setUserType(t)} />
              {t === "user" ? "User" : "Admin"}
            </label>
          ))}
        </div>
        {errors.userType && <p className="field__error">{errors.userType}</p>}
      </div>
      <Field label="Email" name="email" type="email" autoComplete="email" value={email} error={errors.email}
        onChange={(e) => { setEmail(e.target.value); setErrors((er) => ({ ...er, email: "" })); }} />
      <PasswordField label="Password" name="password" autoComplete="current-password" value={password} error={errors.password}
        onChange={(e) => { setPassword(e.target.value); setErrors((er) => ({ ...er, password: "" })); }} />
      {formError && <div className="alert alert--danger" role="alert" data-testid="login-error"><p>{formError}</p></div>}
      <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={busy}>
        {busy ? "Signing in..." : userType === "admin" ? "Sign in as Admin" : "Sign in as User"}
      </button>
    </form>
  );
}
