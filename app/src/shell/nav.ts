export interface NavItem {
  to: string;
  label: string;
  end?: boolean;
}

/** The borrower/investor menu. */
export const USER_MENU: NavItem[] = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/loans/my-loans", label: "My Loans" },
  { to: "/loans/request", label: "Request Loan" },
  { to: "/marketplace", label: "Marketplace" },
  { to: "/portfolio", label: "Portfolio" },
  // Not in the spec's menu: the vault page was reachable only from the chat.
  { to: "/nft-transfer", label: "Vault" },
  { to: "/kyc", label: "KYC" },
  { to: "/profile", label: "Profile" },
];

/** A visitor's menu: the pages anyone may read (the phone menu was empty signed out). */
export const PUBLIC_MENU: NavItem[] = [
  { to: "/", label: "Home", end: true },
  { to: "/marketplace", label: "Marketplace" },
];

/** The admin's menu. */
export const ADMIN_MENU: NavItem[] = [
  { to: "/admin", label: "Admin Dashboard", end: true },
  { to: "/admin/loans", label: "Manage Loans" },
  { to: "/admin/users", label: "Manage Users" },
];

/** The admin sidebar. */
export const ADMIN_SIDEBAR: NavItem[] = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/admin/loans", label: "My Loans" },
  { to: "/admin/request", label: "Loan Requests" },
  { to: "/admin/marketplace", label: "Marketplace" },
  { to: "/admin/portfolio", label: "Portfolio" },
  { to: "/admin/kyc", label: "KYC Verification" },
  { to: "/admin/users", label: "Users" },
  { to: "/admin/reconciliation", label: "Reconciliation" },
  { to: "/admin/contact", label: "Messages" },
];
