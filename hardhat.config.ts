import { createRequire } from "node:module";
import hardhatToolboxViemPlugin from "@nomicfoundation/hardhat-toolbox-viem";
import { defineConfig } from "hardhat/config";
import branchProbesPlugin from "./contracts/coverage/plugin";

const require = createRequire(import.meta.url);
// The npm solc (soljson.js) keeps compiling offline: Hardhat downloads nothing when given a path.
const solc = { version: require("solc/package.json").version as string, path: require.resolve("solc/soljson.js") };

export default defineConfig({
  // Branch probes join EDR's statement coverage, in `--coverage` builds only (contracts/coverage/).
  plugins: [hardhatToolboxViemPlugin, branchProbesPlugin],
  paths: { sources: "contracts", tests: { nodejs: "contracts/test" } },
  solidity: {
    profiles: {
      default: {
        compilers: [{ ...solc, settings: { optimizer: { enabled: true, runs: 10_000 }, viaIR: true, evmVersion: "cancun" } }],
        // LoanNote is tuned for fewer runs: its code must stay well under EIP-170's limit (docs/adr/0041); at 500 runs
        // late fees and the refinance hook fit its 19,000 bytes (docs/adr/0043).
        overrides: {
          "contracts/LoanNote.sol": { ...solc, settings: { optimizer: { enabled: true, runs: 500 }, viaIR: true, evmVersion: "cancun" } },
        },
      },
    },
  },
  networks: {
    // The in-process chain of the tests: large enough for the property and schedule suites.
    hardhat: { type: "edr-simulated", chainType: "l1", allowUnlimitedContractSize: false },
  },
});
