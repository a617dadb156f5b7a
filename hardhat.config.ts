import { createRequire } from "node:module";
import hardhatToolboxViemPlugin from "@nomicfoundation/hardhat-toolbox-viem";
import { defineConfig } from "hardhat/config";
import branchProbesPlugin from "./contracts/coverage/plugin";

const require = createRequire(import.meta.url);
// The npm solc (soljson.js) keeps compiling offline: Hardhat downloads nothing when given a path.
const solc = { version: require("solc/package.json").version as string, path: require.resolve("solc/soljson.js") };
const settings = (runs: number) => ({ optimizer: { enabled: true, runs }, viaIR: true, evmVersion: "cancun" });

export default defineConfig({
  // Branch probes join EDR's statement coverage, in `--coverage` builds only (contracts/coverage/).
  plugins: [hardhatToolboxViemPlugin, branchProbesPlugin],
  paths: { sources: "contracts", tests: { nodejs: "contracts/test" } },
  solidity: {
    profiles: {
      default: {
        compilers: [{ ...solc, settings: settings(10_000) }],
        // LoanNote is tuned for size as well as gas: at 1,000 runs its code is about 1,500 bytes smaller, leaving room
        // under its 19,000-byte budget, for about 100-200 more gas per call than at 10,000.
        overrides: { "contracts/LoanNote.sol": { ...solc, settings: settings(1_000) } },
      },
    },
  },
  networks: {
    // The in-process chain of the tests: large enough for the property and schedule suites.
    hardhat: { type: "edr-simulated", chainType: "l1", allowUnlimitedContractSize: false },
  },
});
