// The accounts part of the stack (chain, built app, API) for when the contracts cannot be deployed yet.
import { execFileSync } from "node:child_process";
import { startAnvil, rpcAnswers } from "../devchain/anvil";
import { startServer } from "../api/src/server";

const rpcUrl = process.env.RPC_URL!;
const stops: Array<() => Promise<void>> = [];
if (!(await rpcAnswers(rpcUrl))) {
  const anvil = await startAnvil({ port: Number(new URL(rpcUrl).port), silent: true });
  stops.push(() => anvil.stop());
}
execFileSync("vite", ["build", "--config", "app/vite.config.ts", "--logLevel", "warn"], { stdio: "inherit" });
const server = await startServer({ port: Number(process.env.PORT) });
stops.unshift(() => server.close());
console.log(`[e2e] stack ready at ${server.url}`);

const shutdown = async () => {
  for (const stop of stops) await stop().catch(() => {});
  process.exit(0);
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
