// `npm run reset`: wipes ./data (chain state, embedded database, uploads, deployment record) so the
// next `npm start` begins from nothing. Refuses to run while a chain still answers on the data.
import { existsSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { rpcAnswers } from "#devchain/anvil";

const dataDir = resolve(process.env.DATA_DIR ?? "data");
const rpcUrl = process.env.RPC_URL ?? "http://127.0.0.1:8545";

if (await rpcAnswers(rpcUrl)) {
  console.error(`[loanmint] a chain still answers at ${rpcUrl}: stop \`npm start\` first, then reset.`);
  process.exit(1);
}
if (!existsSync(dataDir)) {
  console.log(`[loanmint] nothing to reset: ${dataDir} does not exist.`);
} else {
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`[loanmint] wiped ${dataDir}.`);
}
