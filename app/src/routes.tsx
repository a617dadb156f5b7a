import { lazy, Suspense, type ComponentType } from "react";
import { createBrowserRouter, Navigate, useParams, type RouteObject } from "react-router";
import { RootLayout } from "./shell/RootLayout";
import { AppLayout } from "./shell/AppLayout";
import { PublicOnly, RequireAdmin, RequireSignedIn, RequireUser } from "./shell/guards";
import { RouteError } from "./shell/RouteError";
import { WhenNear } from "./components/WhenNear";

/** A code-split page: the module loads when the route is first visited. */
function page<M>(load: () => Promise<M>, pick: (m: M) => ComponentType): Pick<RouteObject, "lazy"> {
  return { lazy: async () => ({ Component: pick(await load()) }) };
}

/** The spec's unregistered links get real destinations: they forward to the page that exists. */
function Forward({ to }: { to: (params: Record<string, string | undefined>) => string }) {
  const params = useParams();
  return <Navigate to={to(params)} replace />;
}

// Far below the fold, with the form schemas (zod) it validates with: it loads when a visitor scrolls near it
// or follows a link to #contact, never with the landing page's first paint.
const ContactSection = lazy(() => import("./features/contact/components/ContactSection").then((m) => ({ default: m.ContactSection })));
const contactPlaceholder = { id: "contact", className: "section section--soft contact-placeholder" };
const contactSection = (
  <WhenNear {...contactPlaceholder}>
    <Suspense fallback={<section {...contactPlaceholder} aria-busy="true" />}>
      <ContactSection />
    </Suspense>
  </WhenNear>
);

const userPages: RouteObject[] = [
  {
    path: "/dashboard",
    // The dashboard shows the chat assistant's launcher; the two features meet here, not through each other's files.
    ...page(
      () => Promise.all([import("./features/dashboard/routes/DashboardPage"), import("./features/chat/components/ChatWidget")]),
      ([dashboard, chat]) =>
        () => <dashboard.DashboardPage chat={<chat.ChatWidget />} />,
    ),
  },
  {
    path: "/kyc",
    ...page(
      () => import("./features/kyc/routes/KycPage"),
      (m) => m.KycPage,
    ),
  },
  {
    path: "/nft-transfer",
    ...page(
      () => import("./features/vault/routes/NftTransferPage"),
      (m) => m.NftTransferPage,
    ),
  },
  {
    path: "/loans",
    ...page(
      () => import("./features/loans/routes/LoansPage"),
      (m) => m.LoansPage,
    ),
  },
  {
    path: "/loans/request",
    ...page(
      () => import("./features/loans/routes/RequestLoanPage"),
      (m) => m.RequestLoanPage,
    ),
  },
  {
    path: "/loans/my-loans",
    ...page(
      () => import("./features/loans/routes/MyLoansPage"),
      (m) => m.MyLoansPage,
    ),
  },
  {
    path: "/loans/:id/statement",
    ...page(
      () => import("./features/statements/routes/LoanStatementPage"),
      (m) => m.LoanStatementPage,
    ),
  },
  {
    path: "/loans/:id",
    ...page(
      () => import("./features/loans/routes/LoanDetailsPage"),
      (m) => m.LoanDetailsPage,
    ),
  },
  {
    path: "/portfolio/statement",
    ...page(
      () => import("./features/statements/routes/PortfolioStatementPage"),
      (m) => m.PortfolioStatementPage,
    ),
  },
  {
    path: "/portfolio",
    ...page(
      () => import("./features/portfolio/routes/PortfolioPage"),
      (m) => m.PortfolioPage,
    ),
  },
  {
    path: "/transactions",
    ...page(
      () => import("./features/transactions/routes/TransactionsPage"),
      (m) => m.TransactionsPage,
    ),
  },
  {
    path: "/test/websocket",
    ...page(
      () => import("./features/realtime/routes/WebSocketTestPage"),
      (m) => m.WebSocketTestPage,
    ),
  },
  { path: "/nft/:id", element: <Forward to={(p) => `/marketplace/nft/${p.id}`} /> },
  { path: "/loan/apply", element: <Navigate to="/loans/request" replace /> },
  { path: "/loan/:id", element: <Forward to={(p) => `/loans/${p.id}`} /> },
];

const adminPages: RouteObject[] = [
  {
    index: true,
    ...page(
      () => import("./features/admin/routes/AdminDashboardPage"),
      (m) => m.AdminDashboardPage,
    ),
  },
  {
    path: "overview",
    ...page(
      () => import("./features/admin/routes/AdminDashboardPage"),
      (m) => m.AdminDashboardPage,
    ),
  },
  {
    path: "loans",
    ...page(
      () => import("./features/admin/routes/AdminLoansPage"),
      (m) => m.AdminLoansPage,
    ),
  },
  {
    path: "request",
    ...page(
      () => import("./features/admin/routes/AdminRequestsPage"),
      (m) => m.AdminRequestsPage,
    ),
  },
  {
    path: "marketplace",
    ...page(
      () => import("./features/admin/routes/AdminMarketplacePage"),
      (m) => m.AdminMarketplacePage,
    ),
  },
  {
    path: "users",
    ...page(
      () => import("./features/admin/routes/AdminUsersPage"),
      (m) => m.AdminUsersPage,
    ),
  },
  {
    path: "portfolio",
    ...page(
      () => import("./features/admin/routes/AdminPortfolioPage"),
      (m) => m.AdminPortfolioPage,
    ),
  },
  {
    path: "kyc",
    ...page(
      () => import("./features/admin/routes/AdminKycPage"),
      (m) => m.AdminKycPage,
    ),
  },
  {
    path: "contact",
    ...page(
      () => import("./features/admin/routes/AdminContactPage"),
      (m) => m.AdminContactPage,
    ),
  },
  {
    path: "reconciliation",
    ...page(
      () => import("./features/admin/routes/AdminReconciliationPage"),
      (m) => m.AdminReconciliationPage,
    ),
  },
  { path: "request-loan", element: <Navigate to="/admin/request" replace /> },
];

/** The route table with its guards; unknown paths go to /. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // The first page's code loads lazily: until it has, an empty busy main (React Router warns on every load without one).
    hydrateFallbackElement: <main id="main" aria-busy="true" />,
    children: [
      {
        element: <AppLayout />,
        errorElement: <RouteError />,
        children: [
          {
            path: "/",
            lazy: async () => {
              const { LandingPage } = await import("./features/landing/routes/LandingPage");
              return { Component: () => <LandingPage contact={contactSection} /> };
            },
          },
          {
            path: "/legal",
            ...page(
              () => import("./features/landing/routes/LegalPage"),
              (m) => m.LegalPage,
            ),
          },
          {
            path: "/explorer/address/:address",
            ...page(
              () => import("./features/explorer/routes/AddressPage"),
              (m) => m.AddressPage,
            ),
          },
          {
            path: "/explorer/tx/:hash",
            ...page(
              () => import("./features/explorer/routes/TransactionPage"),
              (m) => m.TransactionPage,
            ),
          },
          {
            path: "/explorer/token/:id",
            ...page(
              () => import("./features/explorer/routes/TokenPage"),
              (m) => m.TokenPage,
            ),
          },
          // Public like the explorer: a shared link to a note shows its price and terms; buying asks to sign in.
          {
            path: "/marketplace",
            ...page(
              () => import("./features/marketplace/routes/MarketplacePage"),
              (m) => m.MarketplacePage,
            ),
          },
          {
            path: "/marketplace/nft/:id",
            ...page(
              () => import("./features/marketplace/routes/NftDetailsPage"),
              (m) => m.NftDetailsPage,
            ),
          },
          {
            element: <PublicOnly />,
            children: [
              {
                path: "/login",
                ...page(
                  () => import("./features/auth/routes/LoginPage"),
                  (m) => m.LoginPage,
                ),
              },
              {
                path: "/register",
                ...page(
                  () => import("./features/auth/routes/RegisterPage"),
                  (m) => m.RegisterPage,
                ),
              },
            ],
          },
          {
            element: <RequireSignedIn />,
            children: [
              {
                path: "/profile",
                ...page(
                  () => import("./features/profile/routes/ProfilePage"),
                  (m) => m.ProfilePage,
                ),
              },
              // Every signed-in user's, the admin's too: their bell's notices link to both areas.
              {
                path: "/notifications",
                ...page(
                  () => import("./features/notifications/routes/NotificationsPage"),
                  (m) => m.NotificationsPage,
                ),
              },
            ],
          },
          { element: <RequireUser />, children: userPages },
          {
            path: "/admin",
            element: <RequireAdmin />,
            // Lazy like the pages: the admin bar's notification and count schemas (zod) stay out of every visitor's first load.
            children: [
              {
                ...page(
                  () => import("./shell/AdminLayout"),
                  (m) => m.AdminLayout,
                ),
                children: adminPages,
              },
            ],
          },
          { path: "*", element: <Navigate to="/" replace /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
