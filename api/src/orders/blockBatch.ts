import {
  decodeFunctionResult,
  encodeFunctionData,
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type ContractFunctionReturnType,
  type Hex,
  type PublicClient,
  type StateOverride,
} from "viem";
import { orderJudgeAbi, orderJudgeRuntimeCode } from "#domain/overrideCode";

/**
 * The chain reads and fill simulations of one block, gathered while a book is judged and sent together: every
 * call asked in the same turn of the event loop goes out in one `eth_call` to OrderJudge (contracts/OrderJudge.sol),
 * whose code a state override places at a helper address, so judging a book costs a few calls a block whatever
 * its size. Answers are kept for the block: a second read of the book in the same block asks nothing.
 */

/** Where the override puts OrderJudge: an address nobody holds a key to, with no code on any chain. */
export const JUDGE_ADDRESS: Address = "0x000000000000000000000000000000000000a11e";
/** Calls per `eth_call`: a node refuses calls above its gas cap (anvil: the block's 30 M), and a fill costs ~0.2 M. */
const READS_PER_CALL = 1_000;
const FILLS_PER_CALL = 64;

/** A fill for OrderJudge.judge: `sender` (which gets OrderJudge's code) calls `target`, after approving `operator` on `approveOn`. */
export interface FillCall {
  sender: Address;
  target: Address;
  data: Hex;
  approveOn: Address;
  operator: Address;
  /** Storage the fill assumes (a stand-in buyer's funds), added to the call's override. */
  stateOverride: StateOverride;
}

export interface CallResult {
  success: boolean;
  returnData: Hex;
}

type ReadParameters<abi extends Abi, name extends ContractFunctionName<abi, "pure" | "view">> = {
  address: Address;
  abi: abi;
  functionName: name;
  args: ContractFunctionArgs<abi, "pure" | "view", name>;
};

export interface BlockBatch {
  readonly block: bigint;
  /** A view call at this block, sent with the others asked meanwhile; it throws when the call reverts. */
  readContract<const abi extends Abi, name extends ContractFunctionName<abi, "pure" | "view">>(parameters: ReadParameters<abi, name>): Promise<ContractFunctionReturnType<abi, "pure" | "view", name>>;
  /** The size of an account's code at this block. */
  codeSize(account: Address): Promise<bigint>;
  /** A fill simulated at this block, from its sender, alone (nothing another fill did is seen). */
  simulate(fill: FillCall): Promise<CallResult>;
}

interface Pending<T, R> {
  item: T;
  resolve(value: R): void;
  reject(error: unknown): void;
}

/** Items asked in one turn, sent in chunks when the turn ends. */
function gatherer<T, R>(size: number, send: (items: T[]) => Promise<R[]>): (item: T) => Promise<R> {
  let queue: Pending<T, R>[] = [];
  const flush = () => {
    const taken = queue;
    queue = [];
    for (let i = 0; i < taken.length; i += size) {
      const chunk = taken.slice(i, i + size);
      send(chunk.map((p) => p.item)).then(
        (results) => chunk.forEach((p, j) => p.resolve(results[j])),
        (error) => chunk.forEach((p) => p.reject(error)),
      );
    }
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      if (queue.length === 0) setImmediate(flush);
      queue.push({ item, resolve, reject });
    });
}

const judgeCode: StateOverride[number] = { address: JUDGE_ADDRESS, code: orderJudgeRuntimeCode as Hex };

export function createBlockBatch(publicClient: PublicClient, block: bigint): BlockBatch {
  const callJudge = async (data: Hex, stateOverride: StateOverride): Promise<Hex> => {
    const { data: answer } = await publicClient.call({ to: JUDGE_ADDRESS, data, stateOverride, blockNumber: block });
    if (!answer) throw new Error("OrderJudge answered nothing");
    return answer;
  };

  const read = gatherer<{ target: Address; data: Hex }, CallResult>(READS_PER_CALL, async (reads) => {
    const answer = await callJudge(encodeFunctionData({ abi: orderJudgeAbi, functionName: "read", args: [reads] }), [judgeCode]);
    return [...decodeFunctionResult({ abi: orderJudgeAbi, functionName: "read", data: answer })];
  });

  const codeSize = gatherer<Address, bigint>(READS_PER_CALL, async (accounts) => {
    const answer = await callJudge(encodeFunctionData({ abi: orderJudgeAbi, functionName: "codeSizes", args: [accounts] }), [judgeCode]);
    return [...decodeFunctionResult({ abi: orderJudgeAbi, functionName: "codeSizes", data: answer })];
  });

  const simulate = gatherer<FillCall, CallResult>(FILLS_PER_CALL, async (fills) => {
    const args = fills.map(({ sender, target, data, approveOn, operator }) => ({ sender, target, data, approveOn, operator }));
    const senders = [...new Set(fills.map((fill) => fill.sender.toLowerCase() as Address))];
    const stateOverride: StateOverride = [judgeCode, ...senders.map((address) => ({ address, code: orderJudgeRuntimeCode as Hex })), ...mergeOverrides(fills)];
    const answer = await callJudge(encodeFunctionData({ abi: orderJudgeAbi, functionName: "judge", args: [args] }), stateOverride);
    return [...decodeFunctionResult({ abi: orderJudgeAbi, functionName: "judge", data: answer })];
  });

  const reads = new Map<string, Promise<CallResult>>();
  const sizes = new Map<string, Promise<bigint>>();
  return {
    block,
    async readContract(parameters) {
      const { address, abi, functionName, args } = parameters as unknown as { address: Address; abi: Abi; functionName: string; args: readonly unknown[] };
      const data = encodeFunctionData({ abi, functionName, args });
      const key = `${address.toLowerCase()}:${data}`;
      if (!reads.has(key)) reads.set(key, read({ target: address, data }));
      const result = await reads.get(key)!;
      if (!result.success) throw new Error(`${functionName} reverted at block ${block}`);
      return decodeFunctionResult({ abi, functionName, data: result.returnData }) as never;
    },
    codeSize(account) {
      const key = account.toLowerCase();
      if (!sizes.has(key)) sizes.set(key, codeSize(account));
      return sizes.get(key)!;
    },
    simulate,
  };
}

/** The fills' storage overrides, one entry per contract (a node takes each address once). */
function mergeOverrides(fills: FillCall[]): StateOverride {
  const byAddress = new Map<string, NonNullable<StateOverride[number]["stateDiff"]>>();
  for (const fill of fills) {
    for (const entry of fill.stateOverride) {
      const key = entry.address.toLowerCase();
      byAddress.set(key, [...(byAddress.get(key) ?? []), ...(entry.stateDiff ?? [])]);
    }
  }
  return [...byAddress].map(([address, stateDiff]) => ({ address: address as Address, stateDiff }));
}
