/**
 * The pages a visitor most often opens first, with the modules each one's route lazy-loads before it can
 * paint (keep in step with app/src/routes.tsx). The build preloads them from index.html for that address,
 * so they download beside the entry instead of after it; bench/bundle.ts counts the landing's.
 */
export const CRITICAL_ROUTES: Record<string, string[]> = {
  "/": ["src/features/landing/routes/LandingPage.tsx"],
  "/login": ["src/features/auth/routes/LoginPage.tsx"],
  "/register": ["src/features/auth/routes/RegisterPage.tsx"],
  "/marketplace": ["src/features/marketplace/routes/MarketplacePage.tsx"],
  "/dashboard": ["src/features/dashboard/routes/DashboardPage.tsx", "src/features/chat/components/ChatWidget.tsx"],
};
