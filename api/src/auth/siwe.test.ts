import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { AppConfig } from "../config/env";
import { createMemoryStore } from "../kv/memory";
import { createSiweService, SIWE_ANSWERS, SIWE_TTL_MS } from "./siwe";

const config = { chainId: 31337, isLocalChain: true, appOrigin: "http://localhost:5001", siweDomain: "localhost:5001" } as AppConfig;
// A plain account's signature is checked locally: the chain is never asked.
const publicClient = {} as PublicClient;

/** The sign-in service over the real memory store, on a clock the test moves. */
function service(start: number) {
  const clock = { now: start };
  const kv = createMemoryStore("siwe-test:", () => clock.now);
  const siwe = createSiweService({ config, kv, publicClient, now: () => new Date(clock.now) });
  return { siwe, kv, clock };
}

describe("a sign-in request in the store", () => {
  test("is kept for ten minutes and then forgotten, so a late answer is refused as unknown, not kept for a later check", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const { siwe, kv, clock } = service(Date.UTC(2027, 0, 1));
    assert.equal(SIWE_TTL_MS, 10 * 60_000);

    const onTime = await siwe.issue(wallet.address);
    clock.now += SIWE_TTL_MS - 1;
    const signature = await wallet.signMessage({ message: onTime.message });
    assert.equal(await siwe.verify({ walletAddress: wallet.address, signature, message: onTime.message, nonce: onTime.nonce }), wallet.address.toLowerCase());

    const late = await siwe.issue(wallet.address);
    clock.now += SIWE_TTL_MS;
    assert.equal(await kv.get(`siwe:${late.nonce}`), null, "the store no longer holds it");
    const lateSignature = await wallet.signMessage({ message: late.message });
    await assert.rejects(siwe.verify({ walletAddress: wallet.address, signature: lateSignature, message: late.message, nonce: late.nonce }), { status: 401, message: SIWE_ANSWERS.unknownNonce });
    await kv.close();
  });

  test("is spent by a refused answer too: a wrong signature leaves nothing to retry with", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const { siwe, kv } = service(Date.UTC(2027, 0, 1));
    const { message, nonce } = await siwe.issue(wallet.address);
    const wrong = await privateKeyToAccount(generatePrivateKey()).signMessage({ message });
    await assert.rejects(siwe.verify({ walletAddress: wallet.address, signature: wrong, message, nonce }), { status: 401, message: SIWE_ANSWERS.badSignature });
    const right = await wallet.signMessage({ message });
    await assert.rejects(siwe.verify({ walletAddress: wallet.address, signature: right, message, nonce }), { status: 401, message: SIWE_ANSWERS.unknownNonce });
    await kv.close();
  });
});
