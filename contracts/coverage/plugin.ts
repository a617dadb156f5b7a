// Branch coverage for `hardhat test --coverage`: Hardhat 3's EDR records statements only, so this
// plugin adds probes for every branch outcome, whose hits land in coverage/data next to EDR's.
// contracts/coverage/branches.ts turns them into the branch report.
import type { HardhatPlugin } from "hardhat/types/plugins";

const branchProbesPlugin: HardhatPlugin = {
  id: "loanmint-branch-probes",
  hookHandlers: { solidity: () => import("./hooks") },
};

export default branchProbesPlugin;
