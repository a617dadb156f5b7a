import { Link } from "react-router";
import { LoginForm } from "../components/LoginForm";
import { WalletLoginBlock } from "../components/WalletLoginBlock";

export function LoginPage() {
  return (
    <div className="auth-page">
      <div className="auth-card card">
        <div className="auth-card__head">
          <h1>Welcome back</h1>
          <p className="muted">Sign in to manage your loans, notes and portfolio.</p>
        </div>
        <LoginForm />
        <div className="or-divider" role="separator">
          <span>OR</span>
        </div>
        <WalletLoginBlock />
        <p className="center-text auth-card__switch">
          Don't have an account? <Link to="/register">Sign up</Link>
        </p>
        <p className="center-text small muted">
          By signing in you agree to our <Link to="/legal#terms">Terms of Service</Link> and <Link to="/legal#privacy">Privacy Policy</Link>.
        </p>
      </div>
    </div>
  );
}
