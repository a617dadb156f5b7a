import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestApi, newRegistration, type TestApi } from "../testing/harness";

let api: TestApi;
before(async () => {
  api = await startTestApi();
});
after(async () => {
  await api.close();
});

async function signedIn() {
  const registration = newRegistration();
  const answer = await api.call("POST", "/auth/register", { body: registration });
  return { token: answer.body.data.token as string, user: answer.body.data.user, registration };
}

// A valid 1x1 PNG.
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex");

async function upload(token: string | undefined, file: Buffer, filename: string, type = "image/png", field = "profilePicture") {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(file)], { type }), filename);
  const response = await fetch(`${api.url}/api/users/profile/upload-picture`, {
    method: "POST",
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: response.status, body: await response.json() };
}

const avatarDir = () => join(api.config.dataDir, "uploads", "avatars");

describe("profile", () => {
  test("GET /users/profile answers the user's fields", async () => {
    const { token, registration } = await signedIn();
    const answer = await api.call("GET", "/users/profile", { token });
    assert.equal(answer.status, 200);
    for (const field of ["firstName", "lastName", "email", "phoneNumber", "address", "profilePicture"]) assert.ok(field in answer.body.data, field);
    assert.equal(answer.body.data.email, registration.email);
  });

  test("needs a token", async () => {
    assert.equal((await api.call("GET", "/users/profile")).status, 401);
    assert.equal((await api.call("PUT", "/users/profile", { body: { firstName: "A", lastName: "B" } })).status, 401);
  });

  test("PUT /users/profile saves names, phone and a text address", async () => {
    const { token } = await signedIn();
    const answer = await api.call("PUT", "/users/profile", {
      token,
      body: { firstName: "  Ada ", lastName: "Lovelace", phoneNumber: "+44 20 7946 0000", address: "12 St James's Square, London" },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.message, "Profile updated successfully!");
    assert.equal(answer.body.data.firstName, "Ada");
    assert.equal(answer.body.data.phoneNumber, "+44 20 7946 0000");
    assert.equal(answer.body.data.address, "12 St James's Square, London");
    assert.equal((await api.call("GET", "/users/profile", { token })).body.data.lastName, "Lovelace");
  });

  test("refuses blank names with 'First name and last name are required'", async () => {
    const { token } = await signedIn();
    for (const body of [{ firstName: "   ", lastName: "Lovelace" }, { firstName: "Ada" }, { firstName: "Ada", lastName: "" }]) {
      const answer = await api.call("PUT", "/users/profile", { token, body });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.message, "First name and last name are required");
    }
  });

  test("refuses a short phone number", async () => {
    const { token } = await signedIn();
    const answer = await api.call("PUT", "/users/profile", { token, body: { firstName: "Ada", lastName: "Lee", phoneNumber: "123" } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, "Please enter a valid phone number");
  });

  test("never changes the email", async () => {
    const { token, registration } = await signedIn();
    const answer = await api.call("PUT", "/users/profile", { token, body: { firstName: "Ada", lastName: "Lee", email: "new@example.com" } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, "Email cannot be changed");
    const same = await api.call("PUT", "/users/profile", { token, body: { firstName: "Ada", lastName: "Lee", email: registration.email.toUpperCase() } });
    assert.equal(same.status, 200);
    assert.equal(same.body.data.email, registration.email);
  });

  test("refuses to set a wallet: only a signature links one", async () => {
    const { token } = await signedIn();
    for (const body of [{ walletAddress: "0x" + "a".repeat(40) }, { firstName: "Ada", lastName: "Lee", walletAddress: "0x" + "b".repeat(40) }]) {
      const answer = await api.call("PUT", "/users/profile", { token, body });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.message, "A wallet can only be linked by signing in with it");
    }
    assert.equal((await api.call("GET", "/users/profile", { token })).body.data.walletAddress, null);
  });

  test("clears the wallet when only an empty walletAddress is sent", async () => {
    const { token, user } = await signedIn();
    await api.database.db.execute((await import("drizzle-orm")).sql`update users set wallet_address = ${"0x" + "c".repeat(40)} where id = ${user._id}`);
    const answer = await api.call("PUT", "/users/profile", { token, body: { walletAddress: "" } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.message, "Wallet disconnected successfully");
    assert.equal(answer.body.data.walletAddress, null);
  });

  test("answers reminders as not muted until the user mutes them, alone or with the names", async () => {
    const { token } = await signedIn();
    assert.equal((await api.call("GET", "/users/profile", { token })).body.data.remindersMuted, false);
    const muted = await api.call("PUT", "/users/profile", { token, body: { remindersMuted: true } });
    assert.deepEqual([muted.status, muted.body.message, muted.body.data.remindersMuted], [200, "Servicing reminders muted", true]);
    assert.equal((await api.call("GET", "/users/profile", { token })).body.data.remindersMuted, true);
    const withNames = await api.call("PUT", "/users/profile", { token, body: { firstName: "Ada", lastName: "Lee", remindersMuted: false } });
    assert.deepEqual([withNames.status, withNames.body.message, withNames.body.data.remindersMuted], [200, "Profile updated successfully!", false]);
  });

  test("keeps the reminders setting when the names are saved without it", async () => {
    const { token } = await signedIn();
    await api.call("PUT", "/users/profile", { token, body: { remindersMuted: true } });
    const saved = await api.call("PUT", "/users/profile", { token, body: { firstName: "Ada", lastName: "Lee" } });
    assert.equal(saved.body.data.remindersMuted, true);
  });

  test("refuses a mute that is not true or false", async () => {
    const { token } = await signedIn();
    for (const remindersMuted of ["yes", 1, null]) {
      const answer = await api.call("PUT", "/users/profile", { token, body: { remindersMuted } });
      assert.deepEqual([answer.status, answer.body.message], [400, "Reminders must be muted (true) or not (false)"]);
    }
    assert.equal((await api.call("GET", "/users/profile", { token })).body.data.remindersMuted, false);
  });
});

describe("profile picture", () => {
  test("stores an image under a generated name, serves it back, and replaces the old one", async () => {
    const { token } = await signedIn();
    const first = await upload(token, PNG, "me.png");
    assert.equal(first.status, 200);
    assert.equal(first.body.message, "Profile picture updated successfully!");
    const url = new URL(first.body.data.profilePicture);
    assert.match(url.pathname, /^\/api\/uploads\/avatars\/[0-9a-f-]{36}\.png$/);
    const served = await fetch(`${api.url}${url.pathname}`);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get("content-type"), "image/png");
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), PNG);

    const firstName = url.pathname.split("/").pop()!;
    const second = await upload(token, PNG, "again.png");
    const secondName = new URL(second.body.data.profilePicture).pathname.split("/").pop()!;
    assert.notEqual(secondName, firstName);
    assert.ok(!existsSync(join(avatarDir(), firstName)), "the replaced picture is deleted");
    assert.ok(existsSync(join(avatarDir(), secondName)));
    assert.equal((await api.call("GET", "/users/profile", { token })).body.data.profilePicture, second.body.data.profilePicture);
  });

  test("refuses a file that only claims to be an image", async () => {
    const { token } = await signedIn();
    const answer = await upload(token, Buffer.from("<svg onload=alert(1)></svg> definitely a png"), "fake.png", "image/png");
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, "Please select a valid image file");
  });

  test("refuses a picture of 5 MB or more with 413", async () => {
    const { token } = await signedIn();
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const answer = await upload(token, big, "big.png");
    assert.equal(answer.status, 413);
    assert.equal(answer.body.message, "File size must be less than 5MB");
  });

  test("takes a picture one byte under 5 MB and refuses one of exactly 5 MB with 413", async () => {
    const { token } = await signedIn();
    const under = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 - 1 - PNG.length)]);
    assert.equal(under.length, 5 * 1024 * 1024 - 1);
    const exactly = await upload(token, Buffer.concat([under, Buffer.alloc(1)]), "exactly.png");
    assert.equal(exactly.status, 413);
    assert.equal(exactly.body.message, "File size must be less than 5MB");
    const answer = await upload(token, under, "under.png");
    assert.equal(answer.status, 200, answer.body.message);
    const name = new URL(answer.body.data.profilePicture).pathname.split("/").pop()!;
    assert.equal(readFileSync(join(avatarDir(), name)).length, 5 * 1024 * 1024 - 1);
  });

  test("the avatar folder never serves a dotfile, even one that is there", async () => {
    const { token } = await signedIn();
    assert.equal((await upload(token, PNG, "me.png")).status, 200);
    const dotfile = join(avatarDir(), ".env");
    writeFileSync(dotfile, "JWT_SECRET=not-for-the-web");
    try {
      const answer = await fetch(`${api.url}/api/uploads/avatars/.env`);
      assert.notEqual(answer.status, 200);
      assert.doesNotMatch(await answer.text(), /not-for-the-web/);
    } finally {
      // The folder's other tests expect generated names only.
      rmSync(dotfile);
    }
  });

  test("ignores a path-traversal file name and writes only inside the avatars folder", async () => {
    const { token } = await signedIn();
    const answer = await upload(token, PNG, "../../../../evil.png");
    assert.equal(answer.status, 200);
    assert.match(new URL(answer.body.data.profilePicture).pathname, /^\/api\/uploads\/avatars\/[0-9a-f-]{36}\.png$/);
    const written = readdirSync(api.config.dataDir, { recursive: true }).map(String);
    assert.ok(!written.some((name) => name.includes("evil")), written.join(", "));
    assert.ok(readdirSync(avatarDir()).every((name) => /^[0-9a-f-]{36}\.png$/.test(name)));
    assert.ok(!existsSync(join(api.config.dataDir, "..", "evil.png")));
    const traversal = await fetch(`${api.url}/api/uploads/avatars/..%2f..%2fjwt-secret`);
    assert.notEqual(traversal.status, 200);
  });

  test("refuses a missing file or another field name, and needs a token", async () => {
    const { token } = await signedIn();
    const none = await fetch(`${api.url}/api/users/profile/upload-picture`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    assert.equal(none.status, 400);
    assert.equal((await none.json()).message, "Please select a valid image file");
    const wrongField = await upload(token, PNG, "me.png", "image/png", "avatar");
    assert.equal(wrongField.status, 400);
    assert.equal(wrongField.body.message, "Please select a valid image file");
    assert.equal((await upload(undefined, PNG, "me.png")).status, 401);
  });
});
