import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { hashPassword, verifyPassword } from "./passwords";

describe("password hashing", () => {
  test("is argon2id with OWASP's memory-hard profile: 19 MiB of memory, 2 passes, 1 lane, a 16-byte salt", async () => {
    const hash = await hashPassword("correct horse battery");
    const [, algorithm, version, params, salt] = hash.split("$");
    assert.equal(algorithm, "argon2id");
    assert.equal(version, "v=19");
    assert.equal(params, "m=19456,t=2,p=1");
    assert.equal(Buffer.from(salt, "base64").length, 16);
  });

  test("salts every hash: the same password hashes differently twice, and both verify", async () => {
    const first = await hashPassword("same-password");
    const second = await hashPassword("same-password");
    assert.notEqual(first, second);
    assert.equal(await verifyPassword(first, "same-password"), true);
    assert.equal(await verifyPassword(second, "same-password"), true);
  });

  test("verifies only the password that was hashed", async () => {
    const hash = await hashPassword("the-right-one");
    assert.equal(await verifyPassword(hash, "the-right-one"), true);
    assert.equal(await verifyPassword(hash, "the-right-onE"), false);
    assert.equal(await verifyPassword(hash, ""), false);
  });

  test("refuses every password for an account without a hash, or with a hash that is not argon2", async () => {
    for (const stored of [null, undefined, "", "plain-text-password", "$2b$10$abcdefghijklmnopqrstuv"]) {
      assert.equal(await verifyPassword(stored, "plain-text-password"), false, String(stored));
    }
  });
});
