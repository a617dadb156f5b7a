import { Link } from "react-router";
import { Logo } from "./Logo";
import { isAdmin, useSession } from "../lib/session";

/** The footer's Platform links. Admins may not open the user pages (the guard sends them to /admin): they get the admin page of each. */
const PLATFORM = [
  { label: "Marketplace", user: "/marketplace", admin: "/admin/marketplace" },
  { label: "Request a Loan", user: "/loans/request", admin: "/admin/request" },
  { label: "Portfolio", user: "/portfolio", admin: "/admin/portfolio" },
  { label: "KYC Verification", user: "/kyc", admin: "/admin/kyc" },
];

/** The footer. The five "placeholder" links lead to the landing page's real sections. */
export function Footer() {
  const admin = isAdmin(useSession((s) => s.user));
  return (
    <footer className="footer">
      <div className="container footer__grid">
        <div>
          <Logo />
          <p className="muted small footer__tag">Loans approved in a day, minted as on-chain notes, traded and repaid in the open.</p>
        </div>
        <nav aria-label="Platform">
          <h2 className="footer__title">Platform</h2>
          {PLATFORM.map((l) => (
            <Link key={l.label} to={admin ? l.admin : l.user}>
              {l.label}
            </Link>
          ))}
        </nav>
        <nav aria-label="Support">
          <h2 className="footer__title">Support</h2>
          <Link to="/#faq">Help Center</Link>
          <Link to="/#how-it-works">Documentation</Link>
          <Link to="/#contact">Contact Us</Link>
        </nav>
        <nav aria-label="Legal">
          <h2 className="footer__title">Legal</h2>
          <Link to="/legal#privacy">Privacy Policy</Link>
          <Link to="/legal#terms">Terms of Service</Link>
        </nav>
      </div>
      <div className="container footer__bottom muted small">© {new Date().getFullYear()} LoanMint. Loans and notes settle on-chain; every step can be audited.</div>
    </footer>
  );
}
