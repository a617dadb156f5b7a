import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { ROOMS } from "#domain/events";
import { startTestApi, type TestApi } from "../testing/harness";
import { account, nextOf, openSocket, record, settle, type Account } from "./testing";

let api: TestApi;
let alice: Account;
let bob: Account;
let admin: Account;
const sockets: Socket[] = [];
const open = async (token?: string) => {
  const socket = await openSocket(api.url, token);
  sockets.push(socket);
  return socket;
};

before(async () => {
  api = await startTestApi();
  const call = api.call.bind(api);
  [alice, bob, admin] = await Promise.all([account(call, api.database.db), account(call, api.database.db), account(call, api.database.db, { admin: true })]);
});
after(async () => {
  for (const socket of sockets) socket.close();
  await api.close();
});

describe("the socket.io handshake", () => {
  test("is refused without a token", async () => {
    await assert.rejects(open(), { message: "Authentication required" });
  });

  test("is refused with a forged or malformed token", async () => {
    await assert.rejects(open("not-a-jwt"), { message: "Invalid or expired token" });
    const [header, payload] = alice.token.split(".");
    await assert.rejects(open(`${header}.${payload}.${"A".repeat(43)}`), { message: "Invalid or expired token" });
  });

  test("is refused for a token issued before a password change", async () => {
    const stale = await account(api.call.bind(api), api.database.db);
    await api.database.db.execute(sql`update users set password_hash = 'changed' where id = ${stale.id}`);
    await assert.rejects(open(stale.token), { message: "Invalid or expired token" });
  });

  test("answers ping with pong and an ISO timestamp, as an event and as an acknowledgement", async () => {
    const socket = await open(alice.token);
    const events = record(socket);
    const pong = await socket.timeout(2000).emitWithAck("ping");
    assert.ok(!Number.isNaN(Date.parse(pong.timestamp)));
    assert.deepEqual(events.named("pong"), [pong]);
  });

  test("confirms the connection with the user's id and role", async () => {
    const { io } = await import("socket.io-client");
    const socket = io(api.url, { auth: { token: admin.token }, transports: ["websocket"], reconnection: false, forceNew: true });
    sockets.push(socket);
    const confirmed = await new Promise((resolve) => socket.once("connection:confirmed", resolve));
    assert.deepEqual(confirmed, { userId: admin.id, role: "admin" });
  });
});

describe("a password change", () => {
  const kycApproved = (userId: string) =>
    api.server.notifier.notifyUser(
      userId,
      { type: "kyc_approved", title: "KYC approved", message: "KYC Approved! You can now apply for loans." },
      {
        name: "kyc:status",
        payload: { status: "approved" },
      },
    );

  test("disconnects the sockets opened with earlier tokens; they cannot come back, the new token's socket hears the user's events", async () => {
    const user = await account(api.call.bind(api), api.database.db);
    const old = await open(user.token);
    const oldEvents = record(old);
    const disconnected = nextOf(old, "disconnect");
    const changed = await api.call("PUT", "/auth/change-password", { token: user.token, body: { currentPassword: user.password, newPassword: "another456" } });
    assert.equal(changed.status, 200, changed.body.message);
    assert.equal(await disconnected, "io server disconnect");

    const fresh = await open(changed.body.data.token);
    const freshEvents = record(fresh);
    await kycApproved(user.id);
    assert.deepEqual(await freshEvents.next("kyc:status"), { status: "approved" });
    await settle();
    assert.deepEqual(oldEvents.events, [], "no notification:new nor kyc:status after the change");

    // A reconnection is a new handshake, checked like any HTTP request with that token.
    const refused = nextOf(old, "connect_error");
    old.connect();
    assert.equal((await refused).message, "Invalid or expired token");
    assert.equal((await api.call("GET", "/auth/me", { token: user.token })).status, 401);
    assert.equal((await api.call("GET", "/auth/me", { token: changed.body.data.token })).status, 200);
  });

  test("leaves other users' sockets connected", async () => {
    const [user, bystander] = await Promise.all([account(api.call.bind(api), api.database.db), account(api.call.bind(api), api.database.db)]);
    const kept = await open(bystander.token);
    const changed = await api.call("PUT", "/auth/change-password", { token: user.token, body: { currentPassword: user.password, newPassword: "another456" } });
    assert.equal(changed.status, 200, changed.body.message);
    const keptEvents = record(kept);
    await kycApproved(bystander.id);
    assert.deepEqual(await keptEvents.next("kyc:status"), { status: "approved" });
    assert.equal(kept.connected, true);
  });
});

describe("rooms", () => {
  test("a user never receives another user's events", async () => {
    const [a, b] = await Promise.all([open(alice.token), open(bob.token)]);
    const [aliceEvents, bobEvents] = [record(a), record(b)];
    await api.server.notifier.notifyUser(
      alice.id,
      { type: "loan_approved", title: "Loan approved", message: "Loan Approved! $5,000.00 has been approved." },
      { name: "loan:status", payload: { status: "approved", amount: "5000", loanId: "L1" } },
    );
    const status = await aliceEvents.next("loan:status");
    assert.deepEqual(status, { status: "approved", amount: "5000", loanId: "L1" });
    assert.equal(aliceEvents.named("notification:new")[0].message, "Loan Approved! $5,000.00 has been approved.");
    await settle();
    assert.deepEqual(bobEvents.events, []);
  });

  test("admin notifications reach every admin, one stored row each, and no regular user", async () => {
    const second = await account(api.call.bind(api), api.database.db, { admin: true });
    const [x, y, u] = await Promise.all([open(admin.token), open(second.token), open(alice.token)]);
    const [xs, ys, us] = [record(x), record(y), record(u)];
    await api.server.notifier.notifyAdmins(
      { type: "loan_request", title: "New loan request", message: "A new loan request needs review" },
      { name: "admin:notification", payload: { type: "loan_request", message: "A new loan request needs review" } },
    );
    await Promise.all([xs.next("admin:notification"), ys.next("admin:notification")]);
    const [xNote, yNote] = await Promise.all([xs.count("notification:new", 1), ys.count("notification:new", 1)]);
    assert.notEqual(xNote[0]._id, yNote[0]._id, "each admin gets their own row");
    const stored = (await api.database.db.execute(sql`select user_id from notifications where type = 'loan_request'`)) as unknown as { rows: { user_id: string }[] };
    assert.deepEqual(stored.rows.map((row) => row.user_id).sort(), [admin.id, second.id].sort());
    await settle();
    assert.deepEqual(us.events, []);
  });

  test("marketplace events reach only subscribed sockets, and only admins may watch all loans", async () => {
    const [watcher, other] = await Promise.all([open(bob.token), open(alice.token)]);
    const [watched, unwatched] = [record(watcher), record(other)];
    assert.deepEqual(await watcher.timeout(2000).emitWithAck("subscribe:marketplace"), { ok: true, room: "marketplace" });
    assert.deepEqual(await other.timeout(2000).emitWithAck("subscribe:loans"), { ok: false, message: "Access denied" });
    api.server.notifier.publish(ROOMS.marketplace, { name: "marketplace:update", payload: { type: "listed", amount: "1000", nftId: "7" } });
    api.server.notifier.publish(ROOMS.loans, { name: "loan:new", payload: { status: "pending", amount: "1000" } });
    assert.deepEqual(await watched.next("marketplace:update"), { type: "listed", amount: "1000", nftId: "7" });
    await settle();
    assert.deepEqual(unwatched.events, []);
  });
});

describe("the test page's events", () => {
  test("test:message is answered with test:response echoing the message", async () => {
    const socket = await open(alice.token);
    const events = record(socket);
    socket.emit("test:message", { message: "hello" });
    const response = await events.next("test:response");
    assert.deepEqual(response.echo, { message: "hello" });
    assert.equal(response.userId, alice.id);
  });

  test("simulate:* sends the spec's events to the calling socket only and writes nothing", async () => {
    const snapshot = async () =>
      (
        (await api.database.db.execute(sql`
        select (select count(*) from notifications) as notes, (select md5(coalesce(string_agg(u::text, ',' order by id), '')) from users u) as users`)) as unknown as {
          rows: unknown[];
        }
      ).rows[0];
    const before = await snapshot();
    const [caller, sameUserOtherTab, adminSocket] = await Promise.all([open(bob.token), open(bob.token), open(admin.token)]);
    const [mine, otherTab, admins] = [record(caller), record(sameUserOtherTab), record(adminSocket)];
    await caller.timeout(2000).emitWithAck("subscribe:marketplace");

    const acks = [];
    for (const kind of ["simulate:loan:request", "simulate:loan:approval", "simulate:kyc:approval", "simulate:loan:funded"]) {
      acks.push(await caller.timeout(2000).emitWithAck(kind, { amount: 2500 }));
    }
    assert.deepEqual(
      acks.map((ack) => ack.sent),
      [["loan:new", "admin:notification"], ["loan:status"], ["kyc:status"], ["loan:funded"]],
    );
    assert.deepEqual(mine.named("loan:new"), [{ status: "pending", amount: "2500", simulated: true }]);
    assert.equal(mine.named("admin:notification")[0].type, "loan_request");
    assert.deepEqual(mine.named("loan:status"), [{ status: "approved", amount: "2500", rejectionReason: null, simulated: true }]);
    assert.deepEqual(mine.named("kyc:status"), [{ status: "approved", rejectionReason: null, simulated: true }]);
    assert.deepEqual(mine.named("loan:funded"), [{ amount: "2500", nftId: "0", simulated: true }]);
    await settle();
    assert.deepEqual(otherTab.events, [], "not even the caller's other tab");
    assert.deepEqual(admins.events, [], "admins hear nothing of a simulation");
    assert.deepEqual(await snapshot(), before);
  });

  test("a socket flooding events is cut off after its per-second allowance", async (t) => {
    const socket = await open(alice.token);
    const events = record(socket);
    for (let i = 0; i < 50; i += 1) socket.emit("ping");
    // No fixed pause decides what arrived: a ping the server acknowledges was handled after every ping of the
    // flood (one connection keeps the order), and its pong came after theirs. A ping dropped by a still-open
    // window is never acknowledged, so the wait for it is only how long to try again.
    let last: { timestamp: string } | null = null;
    while (!last)
      last = await socket
        .timeout(1500)
        .emitWithAck("ping")
        .catch(() => null);
    const stamp = (pong: { timestamp: string }) => Date.parse(pong.timestamp);
    const flood = events.named("pong").filter((pong) => stamp(pong) < stamp(last!));
    // The server's own stamps say which window each pong fell in: the first 20 in the flood's first second, and
    // anything after them only once that second was over (a slow machine may take longer than a second for 50).
    const windowStart = stamp(flood[0]);
    assert.ok(flood.length >= 20, `${flood.length} pongs`);
    assert.ok(flood.slice(0, 20).every((pong) => stamp(pong) - windowStart <= 1000));
    assert.deepEqual(
      flood.slice(20).filter((pong) => stamp(pong) - windowStart < 999),
      [],
      "no 21st pong within the first second",
    );
    t.diagnostic(`${flood.length} pongs for 50 pings over ${stamp(flood.at(-1)!) - windowStart} ms`);
  });
});
