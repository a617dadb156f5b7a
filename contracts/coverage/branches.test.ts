import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, describe, it } from "node:test";
import { addStatementCoverageInstrumentation } from "@nomicfoundation/edr";
import { getCoverageLibrary } from "@nomicfoundation/edr/coverage";
import { createPublicClient, createWalletClient, http, parseAbi, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { startAnvil, type Anvil } from "#devchain/anvil";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { branchesOf, formatReport, type FileBranches } from "./branches";
import { addBranchProbes } from "./probes";

const solc = createRequire(import.meta.url)("solc") as { compile(input: string): string };

const FILE = "fixture/Fixture.sol";
const SOURCE_NAME = `project/${FILE}`;
const FIXTURE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

contract Fixture {
    uint256 public last;

    function pick(uint256 x) external returns (uint256) {
        if (x > 10) {
            last = 1;
        }
        last = x == 0 || x == 5 ? 7 : last;
        return last;
    }
}
`;
const COVERAGE_ADDRESS = "0xc0bec0bec0bec0bec0bec0bec0bec0bec0bec0be";

/** The fixture as a coverage build compiles it: EDR's statement probes, then ours. */
function compileProbedFixture(): { abi: unknown[]; bytecode: Hex } {
  const edr = addStatementCoverageInstrumentation(FIXTURE, SOURCE_NAME, "0.8.28").source;
  const library = getCoverageLibrary();
  const input = {
    language: "Solidity",
    sources: { [SOURCE_NAME]: { content: addBranchProbes(SOURCE_NAME, FIXTURE, edr) }, [library.filename]: { content: library.content } },
    settings: { evmVersion: "cancun", outputSelection: { [SOURCE_NAME]: { Fixture: ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  assert.deepEqual(errors, []);
  const fixture = output.contracts[SOURCE_NAME].Fixture;
  return { abi: fixture.abi, bytecode: `0x${fixture.evm.bytecode.object}` };
}

interface CallFrame {
  to?: string;
  input?: string;
  calls?: CallFrame[];
}

/** What EDR hands Hardhat for one transaction: the distinct ids sent to the coverage address. */
function hitsOf(frame: CallFrame, into = new Set<string>()): Set<string> {
  if (frame.to?.toLowerCase() === COVERAGE_ADDRESS && frame.input) into.add(frame.input.slice(2).toLowerCase());
  for (const call of frame.calls ?? []) hitsOf(call, into);
  return into;
}

describe("the branch coverage reporter", () => {
  let anvil: Anvil;
  let hits: Map<string, number>;
  let report: FileBranches;

  before(async () => {
    const { abi, bytecode } = compileProbedFixture();
    anvil = await startAnvil({ silent: true });
    const transport = http(anvil.rpcUrl);
    const account = privateKeyToAccount(DEV_ACCOUNTS.deployer);
    const wallet = createWalletClient({ account, chain: foundry, transport });
    const client = createPublicClient({ chain: foundry, transport });
    const deployHash = await wallet.deployContract({ abi, bytecode });
    const { contractAddress } = await client.waitForTransactionReceipt({ hash: deployHash });
    const hash = await wallet.writeContract({
      address: contractAddress!,
      abi: parseAbi(["function pick(uint256) returns (uint256)"]),
      functionName: "pick",
      args: [20n],
    });
    await client.waitForTransactionReceipt({ hash });
    const trace = (await client.request({
      method: "debug_traceTransaction" as never,
      params: [hash, { tracer: "callTracer" }] as never,
    })) as CallFrame;
    hits = new Map([...hitsOf(trace)].map((tag) => [tag, 1]));
    report = branchesOf(FILE, FIXTURE, hits);
  });

  after(async () => {
    await anvil?.stop();
  });

  const outcome = (line: number, kind: string, label: string) => report.outcomes.find((o) => o.line === line && o.site.kind === kind && o.label === label);

  it("reports the outcome a transaction took as taken and the other as untaken", () => {
    assert.ok(outcome(8, "if", "true")!.count > 0, "pick(20) enters `if (x > 10)`");
    assert.equal(outcome(8, "if", "false")!.count, 0);
    assert.ok(outcome(11, "ternary", "false")!.count > 0, "pick(20) takes the ternary's false side");
    assert.equal(outcome(11, "ternary", "true")!.count, 0);
  });

  it("tells a short circuit from an evaluated right operand", () => {
    assert.ok(outcome(11, "||", "left false (right evaluated)")!.count > 0);
    assert.equal(outcome(11, "||", "left true (short-circuit)")!.count, 0);
  });

  it("prints the total and lists every untaken branch with its file and line", () => {
    const { text, taken, total } = formatReport([report]);
    assert.equal(total, 6);
    assert.equal(taken, 3);
    assert.match(text, /Branch coverage: 50\.00% \(3\/6\)/);
    assert.match(text, /fixture\/Fixture\.sol:8 {2}if `x > 10` → false/);
    assert.match(text, /fixture\/Fixture\.sol:11 {2}ternary `x == 0 \|\| x == 5` → true/);
    assert.match(text, /fixture\/Fixture\.sol:11 {2}\|\| `x == 0` → left true \(short-circuit\)/);
  });

  it("counts nothing as taken when the hits come from another version of the source", () => {
    const changed = branchesOf(FILE, FIXTURE.replace("x > 10", "x > 11"), hits);
    assert.equal(changed.outcomes.length, 6);
    assert.ok(changed.outcomes.every((o) => o.count === 0));
  });
});
