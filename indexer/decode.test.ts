import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeEventLog, encodeAbiParameters, encodeEventTopics, getAddress, parseAbi, parseAbiParameters, type Hex } from "viem";
import { LogDecoder } from "./decode";

// Every kind of argument the decoder reads its own way (topic words, data words, hashed topics, the rest).
const abi = parseAbi([
  "event Mixed(uint256 indexed id, address indexed who, uint16 indexed small, uint8 level, uint256 amount, address to, uint40 start)",
  "event Rest(bytes32 indexed role, bool flag, string note, uint32 count)",
]);
const address = "0x00000000000000000000000000000000000000aa";
const who = getAddress("0xabcdef0123456789abcdef0123456789abcdef01");

function log(topics: Hex[], data: Hex) {
  return { address, topics, data, blockNumber: "0x7", blockHash: `0x${"1".repeat(64)}`, transactionHash: `0x${"2".repeat(64)}`, logIndex: "0x0" } as const;
}

test("the decoder gives each argument the value and type viem's decodeEventLog gives, addresses lowercased", () => {
  const decoder = new LogDecoder([{ name: "Test", address, abi }]);
  const mixed = log(
    encodeEventTopics({ abi, eventName: "Mixed", args: { id: 2n ** 200n, who, small: 513 } }) as Hex[],
    encodeAbiParameters(parseAbiParameters("uint8, uint256, address, uint40"), [7, 10n ** 30n, who, 1_700_000_000]),
  );
  const rest = log(
    encodeEventTopics({ abi, eventName: "Rest", args: { role: `0x${"3".repeat(64)}` } }) as Hex[],
    encodeAbiParameters(parseAbiParameters("bool, string, uint32"), [true, "a note", 4_000_000_000]),
  );
  for (const raw of [mixed, rest]) {
    const ours = decoder.decode({ ...raw, topics: [...raw.topics] } as never)!;
    const viems = decodeEventLog({ abi, topics: raw.topics as [Hex], data: raw.data });
    const expected = Object.fromEntries(Object.entries(viems.args ?? {}).map(([key, value]) => [key, typeof value === "string" && value.length === 42 ? value.toLowerCase() : value]));
    assert.equal(ours.name, viems.eventName);
    assert.deepEqual(ours.args, expected);
    assert.equal(ours.blockNumber, 7);
  }
});

test("a log under a known selector with another count of topics is not that event (an ERC-20's Transfer from a followed collection)", () => {
  const erc721 = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)"]);
  const decoder = new LogDecoder([{ name: "Collection", address, abi: erc721 }]);
  const topics = encodeEventTopics({ abi: erc721, eventName: "Transfer", args: { from: who, to: who, tokenId: 5n } }) as Hex[];
  assert.deepEqual(decoder.decode(log(topics, "0x") as never)?.args, { from: who.toLowerCase(), to: who.toLowerCase(), tokenId: 5n });
  const fungible = log(topics.slice(0, 3), encodeAbiParameters(parseAbiParameters("uint256"), [5n]));
  assert.equal(decoder.decode(fungible as never), null);
});
