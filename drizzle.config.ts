import { defineConfig } from "drizzle-kit";

// Generation only: migrations are applied at run time by db/connect.ts, on Postgres and PGlite alike.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
});
