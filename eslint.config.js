// ESLint for the whole repository, one of the quality gate's checks (scripts/qualityGate.mjs).
// TypeScript files are linted with type information, so a promise nobody awaits or hands to a place that
// ignores it is a finding; the app's hooks follow React's rules; nothing unused stays.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  globalIgnores(["**/node_modules/", "**/dist/", "artifacts/", "cache/", "coverage/", "types/", "data/", "test-results/", "playwright-report/", ".tmp/", "domain/abis.ts"]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
    },
  },
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's test/describe/it return promises the runner itself awaits.
      "@typescript-eslint/no-floating-promises": [
        "error",
        { allowForKnownSafeCalls: [{ from: "package", package: "node:test", name: ["test", "describe", "it", "suite", "before", "after", "beforeEach", "afterEach"] }] },
      ],
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: globals.node },
  },
  {
    // Served to the browser as it is, beside Swagger UI's bundle.
    files: ["api/src/openapi/ui/*.js"],
    languageOptions: { globals: globals.browser },
  },
  {
    // Tests and their tooling reach into loosely typed answers and mocks; product code may not.
    files: ["**/*.test.ts", "**/*.spec.ts", "testing/**", "**/testing.ts", "**/testing/**", "api/src/security/world.ts", "bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["app/src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
);
