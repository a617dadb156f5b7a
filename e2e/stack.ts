/** Where the private e2e stack lives; shared by playwright.config.ts, the server launcher and the tests. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 5180);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
export const E2E_RPC_URL = process.env.E2E_RPC_URL ?? "http://127.0.0.1:8650";
export const E2E_DATA_DIR = `.tmp/e2e-data-${E2E_PORT}`; // per port, so two runs never share a chain or a deployment
export const E2E_ADMIN_INVITE = "e2e-invite";
export const E2E_DB_NAME = `loanmint_e2e_${E2E_PORT}`;

/** The admin connection (CI's DATABASE_URL or the machine's Postgres) and the e2e database beside it. */
export function e2eDatabaseUrls() {
  const admin = process.env.E2E_ADMIN_DATABASE_URL || process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
  const url = new URL(admin);
  url.pathname = `/${E2E_DB_NAME}`;
  return { admin, e2e: url.toString() };
}
