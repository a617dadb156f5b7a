import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Router } from "express";
import { CONTACT_SUBJECTS } from "#domain/schemas/contact";
import { LOAN_MESSAGES } from "#domain/schemas/loans";
import { DEFAULT_RATE_LIMITS } from "../http/rateLimit";
import { startTestApi, type TestApi } from "../testing/harness";
import { makeUser, notificationsOf, validRequest, type TestUser } from "#testing/loanStack";

let api: TestApi;
let admin: TestUser;
let borrower: TestUser;
let other: TestUser;

before(async () => {
  api = await startTestApi();
  admin = await makeUser(api, { admin: true });
  borrower = await makeUser(api, { kyc: "approved", wallet: true, firstName: "Bea" });
  other = await makeUser(api, { kyc: "approved", wallet: true, firstName: "Otto" });
});
after(async () => {
  await api?.close();
});

const request = (token: string, body: unknown) => api.call("POST", "/loans/request", { token, body });

describe("a loan request", () => {
  test("is stored pending with a loan number from the sequence, and admins hear of it", async () => {
    const first = await request(borrower.token, { ...validRequest, collateral: { type: "vehicle", value: "9000", description: "2019 pickup" } });
    assert.equal(first.status, 201, first.body.message);
    assert.equal(first.body.message, "Loan request submitted successfully");
    const loan = first.body.data;
    assert.equal(loan.status, "pending");
    assert.equal(loan.mintStatus, "none");
    assert.equal(loan.listingStatus, "none");
    assert.equal(loan.amount, "5000");
    assert.equal(loan.principal, null);
    assert.equal(loan.interestRate, 8.5);
    assert.equal(loan.termMonths, 12);
    assert.deepEqual(loan.collateral, { type: "vehicle", value: "9000", description: "2019 pickup", nft: null });
    assert.equal(loan.user.email, borrower.email);
    assert.equal(loan.timeline[0].action, "requested");
    assert.equal(loan.timeline[0].by._id, borrower.id);
    assert.equal(typeof loan.monthlyPayment, "string");
    const second = await request(borrower.token, validRequest);
    assert.equal(second.body.data.loanNumber, loan.loanNumber + 1);
    const rows = await notificationsOf(api, admin.id);
    assert.ok(rows.some((n) => n.type === "loan_request" && n.message === `New loan request: $5,000.00 from Bea ${borrower.row.lastName}`));
  });

  test("is judged by the one rule set, with the spec's messages", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 0 }, "Loan amount must be greater than 0"],
      [{ amount: undefined }, "Loan amount must be greater than 0"],
      [{ amount: "-5" }, "Loan amount must be greater than 0"],
      [{ amount: 999.99 }, "Minimum loan amount is $1,000"],
      [{ amount: "1000000.01" }, "Maximum loan amount is $1,000,000"],
      [{ amount: "1000.1234567" }, "Loan amount must be a number with at most 6 decimals"],
      [{ purpose: "  " }, "Loan purpose is required"],
      [{ purpose: undefined }, "Loan purpose is required"],
      [{ interestRate: 0.09 }, "Interest rate must be at least 0.1%"],
      [{ interestRate: 50.01 }, "Interest rate cannot exceed 50%"],
      [{ interestRate: 8.555 }, "Interest rate can have at most 2 decimals"],
      [{ termMonths: 0 }, "Loan term must be at least 1 month"],
      [{ termMonths: 361 }, "Loan term cannot exceed 360 months"],
      [{ termMonths: 6.5 }, "Loan term must be a whole number of months"],
      [{ collateral: { value: "10", description: "x" } }, "Collateral type is required"],
      [{ collateral: { type: "nft", value: 0, description: "x" } }, "Collateral value must be greater than 0"],
      [{ collateral: { type: "nft", value: "10", description: "" } }, "Collateral description is required"],
    ];
    for (const [change, message] of cases) {
      const answer = await request(borrower.token, { ...validRequest, ...change });
      assert.equal(answer.status, 400, `${JSON.stringify(change)} -> ${answer.body.message}`);
      assert.equal(answer.body.message, message);
    }
    const edges = [
      { amount: 1000, interestRate: 0.1, termMonths: 1 },
      { amount: "1000000", interestRate: "50", termMonths: "360" },
    ];
    for (const edge of edges) assert.equal((await request(borrower.token, { ...validRequest, ...edge })).status, 201, JSON.stringify(edge));
  });

  test("needs approved KYC and a verified wallet, each with a clear message", async () => {
    const noKyc = await makeUser(api, { kyc: "pending", wallet: true });
    const kycAnswer = await request(noKyc.token, validRequest);
    assert.equal(kycAnswer.status, 403);
    assert.match(kycAnswer.body.message, /KYC/);
    const noWallet = await makeUser(api, { kyc: "approved" });
    const walletAnswer = await request(noWallet.token, validRequest);
    assert.equal(walletAnswer.status, 400);
    assert.equal(walletAnswer.body.message, "Please connect and verify your wallet before requesting a loan");
    assert.equal((await request("", validRequest)).status, 401);
  });
});

describe("limits on loan requests", () => {
  const pendingMessage = (max: number) => `You already have ${max} loan requests awaiting review. Please wait for a decision before requesting another loan.`;
  const loanRequestsTo = async (on: TestApi, userId: string) => (await notificationsOf(on, userId)).filter((n) => n.type === "loan_request").length;

  test("with the default limits, 25 requests of $1,000,000 in a row are not all accepted and do not flood the admins", async () => {
    const limited = await startTestApi({ rateLimits: { loanRequest: DEFAULT_RATE_LIMITS.loanRequest, pendingLoanRequests: DEFAULT_RATE_LIMITS.pendingLoanRequests } });
    try {
      const [watcher, flooder] = [await makeUser(limited, { admin: true }), await makeUser(limited, { kyc: "approved", wallet: true })];
      const statuses: number[] = [];
      for (let i = 0; i < 25; i += 1) statuses.push((await limited.call("POST", "/loans/request", { token: flooder.token, body: { ...validRequest, amount: "1000000" } })).status);
      const cap = DEFAULT_RATE_LIMITS.pendingLoanRequests;
      assert.deepEqual(statuses.slice(0, cap), Array(cap).fill(201));
      assert.deepEqual(statuses.slice(cap, DEFAULT_RATE_LIMITS.loanRequest.max), Array(DEFAULT_RATE_LIMITS.loanRequest.max - cap).fill(400), "past the pending cap");
      assert.deepEqual(statuses.slice(DEFAULT_RATE_LIMITS.loanRequest.max), Array(25 - DEFAULT_RATE_LIMITS.loanRequest.max).fill(429), "past the rate limit");
      assert.equal(await loanRequestsTo(limited, watcher.id), cap);
    } finally {
      await limited.close();
    }
  });

  test("a borrower's requests awaiting review are capped with a clear 400, also when sent at once; a decision frees a place", async () => {
    const limited = await startTestApi({ rateLimits: { pendingLoanRequests: 2 } });
    try {
      const watcher = await makeUser(limited, { admin: true });
      const [eager, bystander] = [await makeUser(limited, { kyc: "approved", wallet: true }), await makeUser(limited, { kyc: "approved", wallet: true })];
      const send = (user: TestUser) => limited.call("POST", "/loans/request", { token: user.token, body: validRequest });
      const burst = await Promise.all([0, 1, 2, 3, 4].map(() => send(eager)));
      assert.deepEqual(burst.map((a) => a.status).sort(), [201, 201, 400, 400, 400]);
      for (const refused of burst.filter((a) => a.status === 400)) assert.equal(refused.body.message, pendingMessage(2));
      assert.equal(await loanRequestsTo(limited, watcher.id), 2);
      assert.equal((await send(bystander)).status, 201, "another borrower has their own places");

      const first = burst.find((a) => a.status === 201)!.body.data._id;
      const rejected = await limited.call("PUT", `/admin/loans/${first}/reject`, { token: watcher.token, body: { rejectionReason: "Too many at once" } });
      assert.equal(rejected.status, 200, rejected.body.message);
      assert.equal((await send(eager)).status, 201);
      assert.equal((await send(eager)).body.message, pendingMessage(2));
    } finally {
      await limited.close();
    }
  });

  test("are rate-limited per borrower with a clear 429, whatever address they call from", async () => {
    // Behind a trusted proxy each request below comes from another client address.
    const limited = await startTestApi({ env: { TRUST_PROXY: "loopback" }, rateLimits: { loanRequest: { max: 2, windowMs: 60 * 60_000 } } });
    try {
      const [hasty, bystander] = [await makeUser(limited, { kyc: "approved", wallet: true }), await makeUser(limited, { kyc: "approved", wallet: true })];
      const send = (user: TestUser, from: string) => limited.call("POST", "/loans/request", { token: user.token, body: validRequest, headers: { "x-forwarded-for": from } });
      assert.equal((await send(hasty, "198.51.100.1")).status, 201);
      assert.equal((await send(hasty, "198.51.100.2")).status, 201);
      const refused = await send(hasty, "198.51.100.3");
      assert.equal(refused.status, 429);
      assert.equal(refused.body.message, LOAN_MESSAGES.requestRate);
      assert.ok(Number(refused.headers.get("retry-after")) > 0);
      assert.equal((await send(bystander, "198.51.100.1")).status, 201, "the limit is the borrower's, not the address's");
    } finally {
      await limited.close();
    }
  });
});

describe("my loans", () => {
  test("lists only the user's own loans, filtered, sorted, searched and paged", async () => {
    const user = await makeUser(api, { kyc: "approved", wallet: true });
    for (const [amount, purpose] of [
      ["2000", "education"],
      ["7000", "medical"],
      ["3000", "education"],
    ]) {
      await request(user.token, { ...validRequest, amount, purpose });
    }
    const all = await api.call("GET", "/loans/my-loans", { token: user.token });
    assert.equal(all.status, 200);
    assert.equal(all.body.data.loans.length, 3);
    assert.equal(all.body.data.pagination.totalLoans, 3);
    const byAmount = await api.call("GET", "/loans/my-loans?sortBy=amount&sortOrder=asc", { token: user.token });
    assert.deepEqual(
      byAmount.body.data.loans.map((l: any) => l.amount),
      ["2000", "3000", "7000"],
    );
    const min = await api.call("GET", "/loans/my-loans?minAmount=2500", { token: user.token });
    assert.equal(min.body.data.loans.length, 2);
    const searched = await api.call("GET", "/loans/my-loans?search=educ", { token: user.token });
    assert.equal(searched.body.data.loans.length, 2);
    const paged = await api.call("GET", "/loans/my-loans?page=2&limit=2", { token: user.token });
    assert.equal(paged.body.data.loans.length, 1);
    assert.equal(paged.body.data.pagination.totalPages, 2);
    const pending = await api.call("GET", "/loans/my-loans?status=rejected", { token: user.token });
    assert.equal(pending.body.data.loans.length, 0);
  });
});

describe("one loan", () => {
  test("is readable by its owner and by admins, and by no other borrower", async () => {
    const created = await request(borrower.token, validRequest);
    const id = created.body.data._id;
    assert.equal((await api.call("GET", `/loans/${id}`, { token: borrower.token })).status, 200);
    const asAdmin = await api.call("GET", `/loans/${id}`, { token: admin.token });
    assert.equal(asAdmin.body.data._id, id);
    const asOther = await api.call("GET", `/loans/${id}`, { token: other.token });
    assert.equal(asOther.status, 404);
    const repayOther = await api.call("PUT", `/loans/${id}/repayment`, { token: other.token, body: { amount: "10", installmentNumber: 1 } });
    assert.equal(repayOther.status, 404);
    assert.equal((await api.call("GET", "/loans/not-a-uuid", { token: borrower.token })).status, 404);
  });

  test("cannot be repaid before its note exists", async () => {
    const created = await request(borrower.token, validRequest);
    const answer = await api.call("PUT", `/loans/${created.body.data._id}/repayment`, { token: borrower.token, body: { amount: "10", installmentNumber: 1 } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.message, "Only an active or defaulted loan with a minted note can be repaid");
    const bad = await api.call("PUT", `/loans/${created.body.data._id}/repayment`, { token: borrower.token, body: { amount: "0" } });
    assert.equal(bad.body.message, "Repayment amount must be greater than 0");
  });
});

describe("rejection", () => {
  test("needs a reason, records who and why in the timeline and tells the borrower", async () => {
    const created = await request(borrower.token, validRequest);
    const id = created.body.data._id;
    const missing = await api.call("PUT", `/admin/loans/${id}/reject`, { token: admin.token, body: { rejectionReason: "  " } });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.message, "Please provide a rejection reason");
    const answer = await api.call("PUT", `/admin/loans/${id}/reject`, { token: admin.token, body: { rejectionReason: "Income too low", adminNotes: "Checked payslips" } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.message, "Loan rejected");
    assert.equal(answer.body.data.status, "rejected");
    assert.equal(answer.body.data.rejectionReason, "Income too low");
    assert.ok(answer.body.data.rejectionDate);
    const entry = answer.body.data.timeline.find((e: any) => e.action === "rejected");
    assert.equal(entry.by._id, admin.id);
    assert.match(entry.notes, /Income too low — Checked payslips/);
    const rows = await notificationsOf(api, borrower.id);
    assert.ok(rows.some((n) => n.type === "loan_rejected" && n.message === "Income too low"));
    const twice = await api.call("PUT", `/admin/loans/${id}/reject`, { token: admin.token, body: { rejectionReason: "Again" } });
    assert.equal(twice.status, 409);
    const approveRejected = await api.call("PUT", `/admin/loans/${id}/approve`, { token: admin.token, body: {} });
    assert.equal(approveRejected.status, 409);
    assert.equal(approveRejected.body.message, "Only pending loans can be approved or rejected");
  });

  test("answers on the spec's alias path with {reason, notes}", async () => {
    const created = await request(borrower.token, validRequest);
    const missing = await api.call("PUT", `/loans/admin/reject/${created.body.data._id}`, { token: admin.token, body: { notes: "n" } });
    assert.equal(missing.body.message, "Please provide a rejection reason");
    const answer = await api.call("PUT", `/loans/admin/reject/${created.body.data._id}`, { token: admin.token, body: { reason: "Duplicate", notes: "n" } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data.rejectionReason, "Duplicate");
  });
});

describe("approval checks before the chain", () => {
  test("refuse a funding amount above the request, a foreign wallet, and a borrower without a verified wallet", async () => {
    const created = await request(borrower.token, validRequest);
    const id = created.body.data._id;
    const above = await api.call("PUT", `/admin/loans/${id}/approve`, { token: admin.token, body: { fundingAmount: "5000.01" } });
    assert.equal(above.status, 400);
    assert.equal(above.body.message, "Funding amount cannot exceed the requested amount");
    const zero = await api.call("PUT", `/admin/loans/${id}/approve`, { token: admin.token, body: { fundingAmount: 0 } });
    assert.equal(zero.body.message, "Funding amount must be greater than 0");
    const foreign = await api.call("PUT", `/admin/loans/${id}/approve`, { token: admin.token, body: { walletAddress: other.wallet!.address } });
    assert.equal(foreign.status, 400);
    assert.equal(foreign.body.message, "The wallet address must be the borrower's verified wallet");
    const malformed = await api.call("PUT", `/admin/loans/${id}/approve`, { token: admin.token, body: { walletAddress: "0x123" } });
    assert.equal(malformed.body.message, "Please enter a valid wallet address");
    const loan = await api.call("GET", `/loans/${id}`, { token: admin.token });
    assert.equal(loan.body.data.status, "pending");
  });
});

describe("admin views", () => {
  test("stats, request lists and one request answer on the spec's paths", async () => {
    const stats = await api.call("GET", "/loans/admin/stats", { token: admin.token });
    assert.equal(stats.status, 200);
    assert.ok(stats.body.data.totalRequests >= 1);
    assert.equal(typeof stats.body.data.byStatus.pending.count, "number");
    assert.ok(stats.body.data.recentRequests.length <= 5);
    const requests = await api.call("GET", "/loans/admin/requests?page=1&limit=5&status=pending", { token: admin.token });
    assert.ok(requests.body.data.loans.every((l: any) => l.status === "pending"));
    assert.equal(typeof requests.body.data.pagination.totalPages, "number");
    const searched = await api.call("GET", "/loans/admin/requests?search=Otto", { token: admin.token });
    assert.equal(searched.body.data.loans.length, 0);
    const one = await api.call("GET", `/loans/admin/requests/${requests.body.data.loans[0]._id}`, { token: admin.token });
    assert.equal(one.body.data._id, requests.body.data.loans[0]._id);
    const admins = await api.call("GET", "/admin/loans?status=rejected", { token: admin.token });
    assert.ok(admins.body.data.loans.length >= 1);
    assert.equal((await api.call("GET", "/admin/loans/00000000-0000-0000-0000-000000000000", { token: admin.token })).status, 404);
  });

  test("the demo loan button makes a real pending request for a demo borrower", async () => {
    const answer = await api.call("POST", "/loans", { token: admin.token });
    assert.equal(answer.status, 201, answer.body.message);
    assert.equal(answer.body.message, "Demo loan request created!");
    assert.equal(answer.body.data.status, "pending");
    assert.equal(answer.body.data.user.kyc.status, "approved");
    assert.ok(Number(answer.body.data.amount) >= 1000);
  });

  test("the dashboard is computed from data", async () => {
    const answer = await api.call("GET", "/admin/dashboard", { token: admin.token });
    assert.equal(answer.status, 200);
    const d = answer.body.data;
    assert.ok(d.totalUsers >= 3);
    assert.ok(d.rejectedLoans >= 2);
    assert.equal(d.approvalRate, 0);
    assert.ok(d.kycCompletionRate > 0 && d.kycCompletionRate <= 100);
    assert.equal(d.feesEarned, "0");
  });

  test("the contact inbox lists messages and marks them read", async () => {
    const sent = await api.call("POST", "/contact", { body: { name: "Kim", email: "kim@example.com", subject: CONTACT_SUBJECTS[0], message: "A question about loans" } });
    assert.equal(sent.status, 201, sent.body.message);
    const inbox = await api.call("GET", "/admin/contact", { token: admin.token });
    const message = inbox.body.data.messages[0];
    assert.equal(message.read, false);
    const marked = await api.call("PUT", `/admin/contact/${message._id}/read`, { token: admin.token });
    assert.equal(marked.body.data.read, true);
    const again = await api.call("GET", "/admin/contact", { token: admin.token });
    assert.equal(again.body.data.messages[0].read, true);
  });
});

describe("every admin route", () => {
  test("answers 403 'Access denied' to a signed-in non-admin, enumerated from the routers themselves", async () => {
    const routes: { method: string; path: string }[] = [];
    for (const { mount, router } of api.server.adminRouters) {
      for (const layer of (router as Router & { stack: any[] }).stack) {
        if (!layer.route) continue;
        for (const method of Object.keys(layer.route.methods)) {
          const path = String(layer.route.path).replace(/:[a-zA-Z]+/g, "00000000-0000-0000-0000-000000000000");
          routes.push({ method: method.toUpperCase(), path: `${mount}${path === "/" ? "" : path}` });
        }
      }
    }
    assert.ok(routes.length >= 25, `only ${routes.length} admin routes found`);
    const userRoutes = new Set(["GET /loans/00000000-0000-0000-0000-000000000000"]);
    for (const route of routes) {
      if (userRoutes.has(`${route.method} ${route.path}`)) continue;
      const body = route.method === "GET" ? undefined : {};
      const answer = await api.call(route.method, route.path, { token: borrower.token, body });
      assert.equal(answer.status, 403, `${route.method} ${route.path} answered ${answer.status}`);
      assert.equal(answer.body.message, "Access denied");
      const anonymous = await api.call(route.method, route.path, { body });
      assert.equal(anonymous.status, 401, `${route.method} ${route.path} without a token`);
    }
  });
});
