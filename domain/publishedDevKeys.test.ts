import { test } from "node:test";
import assert from "node:assert/strict";
import { toHex } from "viem";
import { generatePrivateKey, mnemonicToAccount } from "viem/accounts";
import { DEV_ACCOUNTS, FREE_DEV_KEYS } from "./devAccounts";
import { PUBLISHED_DEV_ACCOUNTS, isPublishedDevAddress, isPublishedDevKey } from "./publishedDevKeys";

const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

test("the list is accounts #0–#19 of anvil's and Hardhat's default mnemonic, keys and addresses", () => {
  assert.equal(PUBLISHED_DEV_ACCOUNTS.length, 20);
  PUBLISHED_DEV_ACCOUNTS.forEach((listed, index) => {
    const derived = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
    assert.equal(listed.key, toHex(derived.getHdKey().privateKey!), `key #${index}`);
    assert.equal(listed.address, derived.address.toLowerCase(), `address #${index}`);
  });
});

test("every dev key the project uses is recognised, in any spelling, and a fresh key is not", () => {
  for (const key of [...Object.values(DEV_ACCOUNTS), ...FREE_DEV_KEYS]) {
    assert.ok(isPublishedDevKey(key));
    assert.ok(isPublishedDevKey(key.toUpperCase().replace("0X", "0x")));
    assert.ok(isPublishedDevKey(key.slice(2)));
  }
  assert.ok(isPublishedDevAddress("0x8626F6940E2eb28930eFb4CeF49B2d1F2C9C1199"), "#19, beyond the 10 anvil funds");
  assert.equal(isPublishedDevKey(generatePrivateKey()), false);
  assert.equal(isPublishedDevAddress("0x0000000000000000000000000000000000000001"), false);
});
