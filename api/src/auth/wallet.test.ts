import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { parseSiweMessage } from "viem/siwe";
import { asc, eq } from "drizzle-orm";
import { users } from "#db/schema";
import { startTestApi, newRegistration, type TestApi } from "../testing/harness";

let api: TestApi;
let clock = Date.now();
before(async () => {
  api = await startTestApi({ now: () => new Date(clock) });
});
after(async () => {
  await api.close();
});

const freshWallet = () => privateKeyToAccount(generatePrivateKey());
/** Every user row, in a stable order, to show that a refused call changed nothing. */
const everyUser = () => api.database.db.select().from(users).orderBy(asc(users.id));
const usersWithWallet = (address: string) => api.database.db.select().from(users).where(eq(users.walletAddress, address.toLowerCase()));

async function challenge(address: string) {
  const answer = await api.call("POST", "/auth/wallet/connect", { body: { walletAddress: address } });
  assert.equal(answer.status, 200, answer.body.message);
  return answer.body.data as { message: string; nonce: string };
}

async function signIn(wallet: PrivateKeyAccount, token?: string) {
  const { message, nonce } = await challenge(wallet.address);
  const signature = await wallet.signMessage({ message });
  return api.call("POST", "/auth/wallet/verify", { token, body: { walletAddress: wallet.address, signature, message, nonce } });
}

describe("the sign-in message", () => {
  test("is EIP-4361 with the app's domain and origin, the chain, a nonce, and a 10-minute expiry", async () => {
    const wallet = freshWallet();
    const { message, nonce } = await challenge(wallet.address.toLowerCase());
    const parsed = parseSiweMessage(message);
    assert.equal(parsed.domain, "localhost:5001");
    assert.equal(parsed.uri, "http://localhost:5001");
    assert.equal(parsed.address, wallet.address);
    assert.equal(parsed.chainId, 31337);
    assert.equal(parsed.version, "1");
    assert.equal(parsed.nonce, nonce);
    assert.equal(parsed.expirationTime!.getTime() - parsed.issuedAt!.getTime(), 10 * 60_000);
    assert.ok(message.startsWith("localhost:5001 wants you to sign in with your Ethereum account:\n"));
  });

  test("is refused for a malformed address", async () => {
    const answer = await api.call("POST", "/auth/wallet/connect", { body: { walletAddress: "0xnothex" } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, "Please enter a valid wallet address");
  });
});

describe("wallet sign-in", () => {
  test("creates a wallet user the first time and signs the same user in afterwards", async () => {
    const wallet = freshWallet();
    const first = await signIn(wallet);
    assert.equal(first.status, 200, first.body.message);
    const user = first.body.data.user;
    assert.equal(user.isWalletUser, true);
    assert.equal(user.walletAddress, wallet.address.toLowerCase());
    assert.equal(user.role, "user");
    const me = await api.call("GET", "/auth/me", { token: first.body.data.token });
    assert.equal(me.body.data.user._id, user._id);
    const second = await signIn(wallet);
    assert.equal(second.status, 200);
    assert.equal(second.body.data.user._id, user._id);
    assert.match(second.body.message, /^Welcome back! Wallet connected 0x/);
  });

  test("refuses a nonce used twice", async () => {
    const wallet = freshWallet();
    const { message, nonce } = await challenge(wallet.address);
    const body = { walletAddress: wallet.address, signature: await wallet.signMessage({ message }), message, nonce };
    assert.equal((await api.call("POST", "/auth/wallet/verify", { body })).status, 200);
    const replay = await api.call("POST", "/auth/wallet/verify", { body });
    assert.equal(replay.status, 401);
    assert.equal(replay.body.message, "This sign-in request is unknown, used or expired. Please try again.");
  });

  test("refuses an expired message", async () => {
    const wallet = freshWallet();
    const { message, nonce } = await challenge(wallet.address);
    const signature = await wallet.signMessage({ message });
    clock += 11 * 60_000;
    try {
      const answer = await api.call("POST", "/auth/wallet/verify", { body: { walletAddress: wallet.address, signature, message, nonce } });
      assert.equal(answer.status, 401);
      assert.equal(answer.body.message, "The sign-in message is expired or was not issued for this site");
    } finally {
      clock -= 11 * 60_000;
    }
  });

  test("refuses a message rewritten for another domain, even when properly signed", async () => {
    const wallet = freshWallet();
    const { message, nonce } = await challenge(wallet.address);
    const foreign = message.replace("localhost:5001 wants", "evil.example wants").replace("URI: http://localhost:5001", "URI: https://evil.example");
    const signature = await wallet.signMessage({ message: foreign });
    const answer = await api.call("POST", "/auth/wallet/verify", { body: { walletAddress: wallet.address, signature, message: foreign, nonce } });
    assert.equal(answer.status, 401);
    assert.equal(answer.body.message, "The signed message is not the one issued");
  });

  test("refuses a nonce issued for another address", async () => {
    const victim = freshWallet();
    const attacker = freshWallet();
    const { message, nonce } = await challenge(victim.address);
    const own = message.replace(victim.address, attacker.address);
    const signature = await attacker.signMessage({ message: own });
    const answer = await api.call("POST", "/auth/wallet/verify", { body: { walletAddress: attacker.address, signature, message: own, nonce } });
    assert.equal(answer.status, 401);
    assert.equal(answer.body.message, "This sign-in request was issued for another wallet");
  });

  test("refuses a signature by another key", async () => {
    const wallet = freshWallet();
    const { message, nonce } = await challenge(wallet.address);
    const signature = await freshWallet().signMessage({ message });
    const answer = await api.call("POST", "/auth/wallet/verify", { body: { walletAddress: wallet.address, signature, message, nonce } });
    assert.equal(answer.status, 401);
    assert.equal(answer.body.message, "Invalid wallet signature");
  });

  test("refuses a verify without a signature", async () => {
    const wallet = freshWallet();
    const { message, nonce } = await challenge(wallet.address);
    const answer = await api.call("POST", "/auth/wallet/verify", { body: { walletAddress: wallet.address, message, nonce } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, "A wallet signature is required");
  });

  test("a registration's typed address never signs anyone in", async () => {
    const wallet = freshWallet();
    const registration = newRegistration({ walletAddress: wallet.address });
    const registered = await api.call("POST", "/auth/register", { body: registration });
    const signedIn = await signIn(wallet);
    assert.equal(signedIn.status, 200);
    assert.notEqual(signedIn.body.data.user._id, registered.body.data.user._id);
    assert.equal(signedIn.body.data.user.isWalletUser, true);
  });
});

describe("linking a wallet to a signed-in account", () => {
  test("with a bearer token, verify links the wallet to that account", async () => {
    const registered = await api.call("POST", "/auth/register", { body: newRegistration() });
    const token = registered.body.data.token;
    const wallet = freshWallet();
    const answer = await signIn(wallet, token);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.message, "Wallet connected successfully!");
    assert.equal(answer.body.data.user._id, registered.body.data.user._id);
    assert.equal(answer.body.data.user.walletAddress, wallet.address.toLowerCase());
    assert.equal(answer.body.data.user.isWalletUser, false);
    const byWallet = await signIn(wallet);
    assert.equal(byWallet.body.data.user._id, registered.body.data.user._id, "the linked wallet now signs into that account");
  });

  test("refuses a wallet already linked to another account with 409", async () => {
    const wallet = freshWallet();
    const owner = await api.call("POST", "/auth/register", { body: newRegistration() });
    assert.equal((await signIn(wallet, owner.body.data.token)).status, 200);
    const other = await api.call("POST", "/auth/register", { body: newRegistration() });
    const answer = await signIn(wallet, other.body.data.token);
    assert.equal(answer.status, 409);
    assert.equal(answer.body.message, "This wallet is already linked to another account");
    assert.equal((await api.call("GET", "/users/profile", { token: other.body.data.token })).body.data.walletAddress, null);
  });

  test("refuses a link with a bad bearer token instead of creating a wallet user", async () => {
    const wallet = freshWallet();
    const before = await everyUser();
    const answer = await signIn(wallet, "not-a-token");
    assert.equal(answer.status, 401);
    assert.equal(answer.body.message, "Invalid or expired token");
    assert.equal(answer.body.data, null, "no token, no user");
    assert.deepEqual(await everyUser(), before, "no account was created or changed");
    assert.deepEqual(await usersWithWallet(wallet.address), []);
  });

  test("a wallet-only account cannot disconnect its only way in", async () => {
    const wallet = freshWallet();
    const created = await signIn(wallet);
    const before = await everyUser();
    for (const walletAddress of ["", null]) {
      const answer = await api.call("PUT", "/users/profile", { token: created.body.data.token, body: { walletAddress } });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.message, "This account signs in with its wallet, so the wallet cannot be disconnected");
    }
    assert.deepEqual(await everyUser(), before, "the wallet is still linked and nothing else changed");
    assert.deepEqual(
      (await usersWithWallet(wallet.address)).map((u) => u.id),
      [created.body.data.user._id],
    );
    assert.equal((await signIn(wallet)).body.data.user._id, created.body.data.user._id, "the wallet still signs in");
  });

  test("a wallet-only account has no password to change: it is told so, and no password is set", async () => {
    const wallet = freshWallet();
    const created = await signIn(wallet);
    const before = await everyUser();
    const answer = await api.call("PUT", "/auth/change-password", { token: created.body.data.token, body: { currentPassword: "anything-at-all", newPassword: "a-new-password" } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, "This account signs in with its wallet and has no password yet");
    assert.deepEqual(await everyUser(), before, "no password was set and nothing else changed");
    assert.equal((await api.call("GET", "/auth/me", { token: created.body.data.token })).status, 200, "the session goes on");
  });

  test("a disconnected wallet can be linked again, to the same or another account", async () => {
    const wallet = freshWallet();
    const owner = await api.call("POST", "/auth/register", { body: newRegistration() });
    await signIn(wallet, owner.body.data.token);
    const cleared = await api.call("PUT", "/users/profile", { token: owner.body.data.token, body: { walletAddress: null } });
    assert.equal(cleared.body.data.walletAddress, null);
    const other = await api.call("POST", "/auth/register", { body: newRegistration() });
    const relinked = await signIn(wallet, other.body.data.token);
    assert.equal(relinked.status, 200);
    assert.equal(relinked.body.data.user._id, other.body.data.user._id);
  });
});

describe("wallet rate limit", () => {
  let limited: TestApi;
  before(async () => {
    limited = await startTestApi({ rateLimits: { wallet: { max: 2, windowMs: 60_000 } } });
  });
  after(async () => {
    await limited.close();
  });

  test("nonce requests beyond the limit get 429", async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await limited.call("POST", "/auth/wallet/connect", { body: { walletAddress: freshWallet().address } })).status);
    assert.deepEqual(statuses, [200, 200, 429]);
  });
});
