import { useState, type FormEvent } from "react";
import { useLocation, useNavigate } from "react-router";
import { useMutation } from "@tanstack/react-query";
import toast from "react-hot-toast";
import type { LoginRequest } from "#domain/schemas/auth";
import { Field, PasswordField } from "../../../components/Field";
import { fieldErrors } from "../../../components/zodErrors";
import { returnTo, useSession } from "../../../lib/session";

// The form's schemas, the login call and its error wording (with zod and axios) are not needed to paint the
// page: they load when the visitor first touches the form, well before the first submit, and on that submit
// at the latest.
const loadLogin = () => Promise.all([import("#domain/schemas/auth"), import("../api/login"), import("../../../lib/errors")]);

type UserType = "user" | "admin";

export function LoginForm() {
  const [userType, setUserType] = useState<UserType>("user");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState("");
  const login = useMutation({ mutationFn: async (input: LoginRequest) => (await loadLogin())[1].login(input) });
  const setSession = useSession((s) => s.setSession);
  const navigate = useNavigate();
  const location = useLocation();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError("");
    let modules: Awaited<ReturnType<typeof loadLogin>>;
    try {
      modules = await loadLogin();
    } catch {
      // The chunk could not be fetched (offline, or a new deploy): the same words as a failed request.
      setFormError("Login failed. Please try again.");
      toast.error("Login failed. Please try again.");
      return;
    }
    const parsed = modules[0].loginFormSchema.safeParse({ email, password, userType });
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
      void navigate(returnTo(location.state, user), { replace: true });
    } catch (error) {
      const { isNetworkError, serverMessage } = modules[2];
      const message = isNetworkError(error) ? "Login failed. Please try again." : serverMessage(error, "Login failed");
      setFormError(message);
      toast.error(message);
    }
  };

  const busy = login.isPending;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="stack" aria-label="Sign in" onFocus={() => void loadLogin().catch(() => undefined)}>
      <div>
        <span className="label" id="login-type">
          Sign in as
        </span>
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
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        value={email}
        error={errors.email}
        onChange={(e) => {
          setEmail(e.target.value);
          setErrors((er) => ({ ...er, email: "" }));
        }}
      />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        value={password}
        error={errors.password}
        onChange={(e) => {
          setPassword(e.target.value);
          setErrors((er) => ({ ...er, password: "" }));
        }}
      />
      {formError && (
        <div className="alert alert--danger" role="alert" data-testid="login-error">
          <p>{formError}</p>
        </div>
      )}
      <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={busy}>
        {busy ? "Signing in..." : userType === "admin" ? "Sign in as Admin" : "Sign in as User"}
      </button>
    </form>
  );
}
