/**
 * Who may call what: every route of the app × (anonymous, borrower A, another borrower B, admin), with the
 * status each gets when the path names A's resources and the body is valid (api/src/security/requests.ts makes
 * the calls). routeTable.test.ts fails when a route has no row (a new route needs a security decision here),
 * when a row has no route, and when any status differs. `why` explains the cells that are not plain
 * 401 / 403 / 200: where a status reflects the resource's state, the caller was let in.
 */
export interface RouteRow {
  method: string;
  /** OpenAPI-style, as api/src/http/routes.ts lists it; a RegExp route by its source. */
  path: string;
  anonymous: number;
  /** Borrower A, who owns every resource the path names. */
  borrower: number;
  /** Borrower B calling with A's ids: never 2xx with A's data. */
  otherBorrower: number;
  admin: number;
  why?: string;
}

export const ROUTE_TABLE: RouteRow[] = [
  { method: "GET", path: "/metrics", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "without METRICS_TOKEN only direct loopback clients are answered (the test's are); through a proxy it is 403 (docs/decisions.md)" },
  { method: "POST", path: "/api/rpc", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "the same-origin chain proxy is public like the chain itself; it forwards only read methods and signed transactions" },
  { method: "GET", path: "/api/users/kyc/status", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "POST", path: "/api/users/kyc/upload", anonymous: 401, borrower: 400, otherBorrower: 400, admin: 200, why: "both borrowers' KYC is already approved, which ends uploads; the admin has none, so theirs is stored" },
  { method: "GET", path: "/api/users/kyc/documents/{documentId}", anonymous: 401, borrower: 200, otherBorrower: 404, admin: 200, why: "B is told A's document does not exist, so ids cannot be probed" },
  { method: "GET", path: "/api/users/kyc/documents/{documentId}/view", anonymous: 404, borrower: 404, otherBorrower: 404, admin: 404, why: "the preview frame's URL opens only with a live ticket for that document (issued by the POST below), whoever calls" },
  { method: "POST", path: "/api/users/kyc/documents/{documentId}/view", anonymous: 401, borrower: 200, otherBorrower: 404, admin: 200, why: "a preview ticket goes to whoever may download the document; B is told it does not exist" },
  { method: "GET", path: "/api/loans/admin/stats", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "GET", path: "/api/loans/admin/requests", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "GET", path: "/api/loans/admin/requests/{id}", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "PUT", path: "/api/loans/admin/approve/{id}", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "PUT", path: "/api/loans/admin/reject/{id}", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "POST", path: "/api/loans", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 201 },
  { method: "POST", path: "/api/loans/request", anonymous: 401, borrower: 201, otherBorrower: 201, admin: 403, why: "the admin has no approved KYC, which every loan request needs" },
  { method: "GET", path: "/api/loans/my-loans", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "GET", path: "/api/loans/{id}", anonymous: 401, borrower: 200, otherBorrower: 404, admin: 200, why: "another user's loan answers as a missing one" },
  { method: "PUT", path: "/api/loans/{id}/repayment", anonymous: 401, borrower: 200, otherBorrower: 404, admin: 403, why: "B gets not-found like any foreign loan; the admin may read the loan but only its borrower repays" },
  { method: "GET", path: "/api/admin/dashboard", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "GET", path: "/api/admin/loans", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "GET", path: "/api/admin/loans/{id}", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "PUT", path: "/api/admin/loans/{id}/approve", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "PUT", path: "/api/admin/loans/{id}/reject", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "PUT", path: "/api/admin/loans/{id}/decision", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "POST", path: "/api/admin/loans/{id}/default", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 409, why: "the admin is let in; A's loan is not yet past maturity and the grace period" },
  { method: "POST", path: "/api/admin/loans/{id}/retry-listing", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 409, why: "the admin is let in; the note is already listed" },
  { method: "POST", path: "/api/admin/nfts/{id}/retry-mint", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 409, why: "the admin is let in; the note is already minted" },
  { method: "POST", path: "/api/admin/jobs/loan-watcher", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "POST", path: "/api/admin/jobs/reconcile", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "GET", path: "/api/admin/users", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "GET", path: "/api/admin/users/{id}", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "PUT", path: "/api/admin/users/{id}/kyc", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 409, why: "the admin is let in; A's KYC was decided when the world was built and only a pending one can be" },
  { method: "GET", path: "/api/admin/treasury", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "PUT", path: "/api/admin/treasury/notes/{tokenId}/price", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "PUT", path: "/api/admin/treasury/notes/{tokenId}/unlist", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "PUT", path: "/api/admin/treasury/notes/{tokenId}/par", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "POST", path: "/api/admin/treasury/withdraw", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "GET", path: "/api/admin/contact", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "PUT", path: "/api/admin/contact/{id}/read", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "GET", path: "/api/nfts/admin/all", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "GET", path: "/api/nfts/marketplace/browse", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "GET", path: "/api/nfts/my-portfolio", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "GET", path: "/api/nfts/mirror", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "public: the chain mirror's height, nothing per user" },
  { method: "GET", path: "/api/nfts/{id}", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "a note's page is public: an auditor needs no account, and it shows no account data" },
  { method: "GET", path: "/api/nfts/{id}/ownership", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "a note's owner history is public, as it is on the chain" },
  { method: "POST", path: "/api/orders/typed-data", anonymous: 401, borrower: 200, otherBorrower: 403, admin: 403, why: "a listing's typed data only for the note's holder" },
  { method: "POST", path: "/api/orders", anonymous: 401, borrower: 201, otherBorrower: 201, admin: 403, why: "each signs their own order on A's note (A lists, B offers); the admin has no approved KYC, which trading needs" },
  { method: "GET", path: "/api/orders/note/{tokenId}", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "the order book is public, as the orders are on-chain fillable by anyone" },
  { method: "GET", path: "/api/orders/mine", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "GET", path: "/api/orders/matching", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "open matching offers are public, like the book" },
  { method: "PUT", path: "/api/nfts/{id}/list", anonymous: 401, borrower: 200, otherBorrower: 403, admin: 403, why: "only the wallet holding the note may list it; an admin has no power over a user's note" },
  { method: "PUT", path: "/api/nfts/{id}/unlist", anonymous: 401, borrower: 200, otherBorrower: 403, admin: 403, why: "only the seller may unlist, admin included" },
  { method: "POST", path: "/api/nfts/{id}/buy", anonymous: 401, borrower: 400, otherBorrower: 200, admin: 403, why: "a listing is an offer to anyone with approved KYC: B gets the permit for B's own wallet; A cannot buy A's own listing; the admin has no approved KYC" },
  { method: "POST", path: "/api/nfts/{id}/transfer", anonymous: 401, borrower: 200, otherBorrower: 403, admin: 403, why: "only the holder's own wallet can move a note" },
  { method: "GET", path: "/api/loans/marketplace/list", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "GET", path: "/api/activity", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "GET", path: "/api/activity/summary", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "GET", path: "/api/activity/loans/{id}", anonymous: 401, borrower: 200, otherBorrower: 404, admin: 200, why: "another user's loan answers as a missing one" },
  { method: "POST", path: "/api/auth/register", anonymous: 201, borrower: 201, otherBorrower: 201, admin: 201, why: "public sign-up; a token on the request changes nothing" },
  { method: "POST", path: "/api/auth/login", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "each caller signs in with its own credentials (anonymous with A's)" },
  { method: "GET", path: "/api/auth/me", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "PUT", path: "/api/auth/change-password", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200, why: "each caller changes its own password and carries on with the fresh token the answer holds" },
  { method: "POST", path: "/api/auth/wallet/connect", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "public: a sign-in challenge for any address" },
  { method: "POST", path: "/api/auth/wallet/verify", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "anonymous signs in with a new wallet; signed-in callers link their own wallet" },
  { method: "POST", path: "/api/simple-auth/login", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "alias of /auth/login" },
  { method: "POST", path: "/api/simple-auth/signup", anonymous: 201, borrower: 201, otherBorrower: 201, admin: 201, why: "alias of /auth/register" },
  { method: "GET", path: "/api/users/profile", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "PUT", path: "/api/users/profile", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "POST", path: "/api/users/profile/upload-picture", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "POST", path: "/api/contact", anonymous: 201, borrower: 201, otherBorrower: 201, admin: 201, why: "public contact form" },
  { method: "GET", path: "/api/contact", anonymous: 401, borrower: 403, otherBorrower: 403, admin: 200 },
  { method: "GET", path: "/api/notifications", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "PUT", path: "/api/notifications/read-all", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "PUT", path: "/api/notifications/{id}/read", anonymous: 401, borrower: 200, otherBorrower: 404, admin: 404, why: "a notification is only ever its own user's: B and the admin get not-found" },
  { method: "POST", path: "/api/chatbot/message", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "GET", path: "/api/chatbot/history", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "DELETE", path: "/api/chatbot/clear", anonymous: 401, borrower: 200, otherBorrower: 200, admin: 200 },
  { method: "GET", path: "/api/docs", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "the public API reference" },
  { method: "GET", path: "/api/docs/openapi.json", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "the public API reference" },
  { method: "GET", path: "/api/docs/assets/{file}", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "three allow-listed Swagger UI files; any other name is 404" },
  { method: "GET", path: "/api/health", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "public, for load balancers" },
  { method: "GET", path: "/api/config", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "public run-time settings of the app" },
  { method: "POST", path: "/api/dev/faucet", anonymous: 200, borrower: 200, otherBorrower: 200, admin: 200, why: "local chain only (absent elsewhere); test money for any address" },
  { method: "GET", path: "^\\/(?!api(?:\\/|$)).*", anonymous: 404, borrower: 404, otherBorrower: 404, admin: 404, why: "the SPA fallback; the test server has no built app, so every page falls through to 404" },
];
