import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeErrorResult, ExecutionRevertedError, RpcRequestError, TransactionExecutionError, UserRejectedRequestError, zeroAddress, type Abi, type AbiParameter } from "viem";
import * as abis from "./abis";
import { CONTRACT_ERROR_SENTENCES, decodeContractError, decodeRevertData, UNKNOWN_REVERT_SENTENCE } from "./contractErrors";

type AbiError = Extract<Abi[number], { type: "error" }>;
const everyAbi: readonly Abi[] = Object.values(abis);
const everyError = everyAbi.flatMap((abi) => abi.filter((item): item is AbiError => item.type === "error"));

/** A value of each Solidity type the errors carry, so each error can be encoded as a contract would revert with it. */
function sample(parameter: AbiParameter): unknown {
  if (parameter.type.startsWith("uint")) return 7n;
  if (parameter.type.startsWith("int")) return -7n;
  if (parameter.type === "address") return zeroAddress;
  if (parameter.type === "bytes32") return `0x${"ab".repeat(32)}`;
  if (parameter.type === "string") return "LoanMint";
  throw new Error(`no sample for ${parameter.type}`);
}

/** What viem throws when a node refuses a transaction with this revert data (as seen from anvil). */
function nodeRefusal(data: `0x${string}`) {
  const rpc = new RpcRequestError({ body: {}, url: "http://127.0.0.1:8545", error: { code: 3, message: "execution reverted", data } });
  return new TransactionExecutionError(new ExecutionRevertedError({ cause: rpc, message: rpc.message }), { account: null });
}

test("every custom error of the four contracts' ABIs has a sentence", () => {
  assert.ok(everyError.length >= 40, `only ${everyError.length} errors were read from the ABIs`);
  const missing = everyError.map((item) => item.name).filter((name) => !Object.hasOwn(CONTRACT_ERROR_SENTENCES, name));
  assert.deepEqual(missing, [], "add a sentence to domain/contractErrors.ts for each new contract error");
});

test("each sentence reads as a sentence and names no error or hex code", () => {
  for (const [name, sentence] of Object.entries(CONTRACT_ERROR_SENTENCES)) {
    assert.match(sentence, /^[A-Z].*\.$/, `${name}: starts with a capital and ends with a full stop`);
    assert.doesNotMatch(sentence, /0x/, `${name}: no hex`);
    assert.ok(!everyError.some((item) => sentence.includes(item.name)), `${name}: names no contract error`);
  }
});

test("every error, reverted as a node reports it or by its selector alone, decodes to its own sentence", () => {
  for (const item of everyError) {
    const data = encodeErrorResult({ abi: [item], errorName: item.name, args: item.inputs.map(sample) });
    const expected = { name: item.name, sentence: CONTRACT_ERROR_SENTENCES[item.name as keyof typeof CONTRACT_ERROR_SENTENCES] };
    assert.deepEqual(decodeContractError(nodeRefusal(data)), expected);
    assert.deepEqual(decodeRevertData(data.slice(0, 10) as `0x${string}`), expected, `${item.name} by its selector`);
  }
});

test("the listing that moved is explained in the words of the issue", () => {
  const data = encodeErrorResult({ abi: abis.noteMarketplaceAbi, errorName: "ListingStale", args: [42n] });
  assert.equal(decodeRevertData(data).sentence, "This listing changed after you opened it: the price or the note moved. Reload to see the current offer.");
});

test("a wallet that passes on only the node's message is decoded by the selector in it", () => {
  const walletError = Object.assign(new Error("execution reverted: custom error 0x97536843: \u0000\u0007"), { code: 3 });
  const decoded = decodeContractError(walletError);
  assert.equal(decoded?.sentence, decodeRevertData(encodeErrorResult({ abi: abis.noteMarketplaceAbi, errorName: "ListingStale", args: [1n] })).sentence);
});

test("a plain require message is shown as the contract wrote it", () => {
  const data = encodeErrorResult({ abi: [{ type: "error", name: "Error", inputs: [{ name: "message", type: "string" }] }], errorName: "Error", args: ["Too late"] });
  assert.deepEqual(decodeContractError(nodeRefusal(data)), { name: "Error", sentence: "Too late" });
});

test("a revert whose reason is unknown or missing says the contract refused, never its hex", () => {
  assert.deepEqual(decodeContractError(nodeRefusal("0xdeadbeef00")), { name: null, sentence: UNKNOWN_REVERT_SENTENCE });
  assert.deepEqual(decodeContractError(Object.assign(new Error("execution reverted"), { code: 3 })), { name: null, sentence: UNKNOWN_REVERT_SENTENCE });
});

test("a failure that is no revert is left to the caller", () => {
  assert.equal(decodeContractError(new UserRejectedRequestError(new Error("User rejected the request."))), null);
  assert.equal(decodeContractError(new Error("fetch failed")), null);
  assert.equal(decodeContractError(undefined), null);
});
