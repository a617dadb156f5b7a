import { createWalletClient, http, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { demoCollectionAbi } from "#domain/abis";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import type { TestUser } from "#testing/loanStack";
import { ORDER_TYPES, orderDomain } from "#domain/orders";
import { newRegistration, type Answer } from "../testing/harness";
import { PASSWORD, PNG, type World } from "./world";

export const ROLES = ["anonymous", "otherBorrower", "borrower", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** One call as a role makes it: a concrete path (with its query), and a JSON or multipart body. */
export interface Request {
  path: string;
  json?: unknown;
  form?: FormData;
}

/**
 * How to call one route honestly: the path's ids name borrower A's resources (made once per route, so a route
 * that decides something has its own), and the body is one the caller could validly send, so the status says
 * whether the caller may, not whether the body was well formed.
 */
export interface Recipe {
  /** Path parameters, made once per route before the four calls. */
  params?(world: World): Promise<Record<string, string>> | Record<string, string>;
  /** Query string (without '?') for the call. */
  query?: string;
  /** The body the caller sends; `caller` is undefined for anonymous. */
  json?(world: World, caller: TestUser | undefined): unknown | Promise<unknown>;
  form?(world: World, caller: TestUser | undefined): FormData;
  /** What the caller does with a successful answer (a session carries on with a fresh token). */
  after?(answer: Answer, caller: TestUser | undefined): void;
  /** A concrete path for a RegExp route. */
  example?: string;
  /** Anonymous acts as A here (signs in with A's password), so A's data in its answer is no leak. */
  anonymousIsA?: true;
}

/**
 * The order each caller could sign on A's note: A (its holder) a listing, anyone else an offer at 90% of par. The typed
 * data comes from the API; where the API will not give it (an admin without KYC), the caller signs the same order
 * built by hand, as another client would, and the publishing route judges it.
 */
async function signedOrderOnHeldNote(w: World, caller: TestUser | undefined) {
  if (!caller?.wallet) return { kind: "offer", message: {}, signature: "0x" };
  const isHolder = caller.id === w.a.id;
  const kind = isHolder ? "listing" : "offer";
  const asked = await w.call("POST", "/orders/typed-data", { token: caller.token, body: { kind, tokenId: w.heldTokenId, priceKind: "par", parBps: 9000, ...(isHolder ? {} : { cap: "100" }) } });
  const typed = asked.status === 200 ? asked.body.data.typedData : handMadeOffer(w, caller);
  const message = Object.fromEntries(Object.entries(typed.message as Record<string, string>).map(([k, v]) => [k, v.startsWith("0x") ? v : BigInt(v)]));
  const signature = await caller.wallet.signTypedData({ domain: typed.domain, types: typed.types, primaryType: typed.primaryType, message });
  return { kind, message: typed.message, signature };
}

function handMadeOffer(w: World, caller: TestUser) {
  const message = {
    buyer: caller.wallet!.address,
    tokenId: w.heldTokenId,
    price: "0",
    parBps: "9000",
    cap: "100000000",
    changes: "0",
    maxDaysPastDue: "0",
    expiry: "4102444800",
    salt: "7",
    counter: "0",
  };
  return { domain: orderDomain(31337, w.stack.deployment.contracts.marketplace as `0x${string}`), types: { Offer: ORDER_TYPES.Offer }, primaryType: "Offer", message };
}

const pngForm = (field: string, extra: Record<string, string> = {}) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(extra)) form.append(key, value);
  form.append(field, new Blob([new Uint8Array(PNG)], { type: "image/png" }), "picture.png");
  return form;
};

/** A signed SIWE challenge for the wallet: anonymous signs in with a new wallet, a user links their own. */
async function siweBody(world: World, caller: TestUser | undefined) {
  const wallet: PrivateKeyAccount = caller?.wallet ?? privateKeyToAccount(generatePrivateKey());
  const challenge = await world.call("POST", "/auth/wallet/connect", { body: { walletAddress: wallet.address } });
  const { message, nonce } = challenge.body.data as { message: string; nonce: string };
  return { walletAddress: wallet.address, signature: await wallet.signMessage({ message }), message, nonce };
}

/** A fresh pending request of A pledging a demo piece minted to A's wallet for it. */
async function pledgedLoanOfA(w: World) {
  const demo = w.stack.deployment.contracts.demoCollection as Address;
  const deployer = createWalletClient({ account: privateKeyToAccount(DEV_ACCOUNTS.deployer), chain: foundry, transport: http(w.stack.anvil.rpcUrl) });
  await w.stack.chain.waitForTransactionReceipt({ hash: await deployer.writeContract({ address: demo, abi: demoCollectionAbi, functionName: "mint", args: [w.a.wallet!.address] }) });
  const tokenId = await w.stack.chain.readContract({ address: demo, abi: demoCollectionAbi, functionName: "totalMinted" });
  await w.indexer.caughtUp();
  const collateral = { type: "nft", value: "8000", description: "A pledged demo piece", nft: { collection: demo, tokenId: tokenId.toString() } };
  const answer = await w.call("POST", "/loans/request", { token: w.a.token, body: { amount: "5000", purpose: "business", interestRate: 8.5, termMonths: 12, collateral } });
  if (answer.status !== 201) throw new Error(`pledged request: ${answer.status} ${answer.body?.message}`);
  return { id: answer.body.data._id as string };
}

const login = (world: World, caller: TestUser | undefined) => ({ email: (caller ?? world.a).email, password: PASSWORD });
const pending = async (world: World) => ({ id: await world.pendingLoanOfA() });
const active = (world: World) => ({ id: world.activeLoanId });

/** Keyed by "METHOD /openapi/path", as listRoutes names routes. Routes not here are called bare. */
export const RECIPES: Record<string, Recipe> = {
  "POST /api/rpc": { json: () => ({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }) },

  "POST /api/users/kyc/upload": { form: () => pngForm("idDocument", { idDocumentType: "passport" }) },
  "GET /api/users/kyc/documents/{documentId}": { params: (w) => ({ documentId: w.kycDocumentId }) },
  "GET /api/users/kyc/documents/{documentId}/view": { params: (w) => ({ documentId: w.kycDocumentId }), query: "ticket=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
  "POST /api/users/kyc/documents/{documentId}/view": { params: (w) => ({ documentId: w.kycDocumentId }) },

  "GET /api/loans/admin/requests/{id}": { params: active },
  "PUT /api/loans/admin/approve/{id}": { params: pending, json: () => ({ notes: "Approved by the security suite" }) },
  "PUT /api/loans/admin/reject/{id}": { params: pending, json: () => ({ reason: "Rejected by the security suite" }) },
  "POST /api/loans/request": { json: () => ({ amount: "5000", purpose: "business", interestRate: 8.5, termMonths: 12 }) },
  "GET /api/loans/{id}": { params: active },
  "PUT /api/loans/{id}/repayment": { params: active, json: () => ({ amount: "100" }) },
  "GET /api/loans/{id}/collateral": { params: pledgedLoanOfA },
  "PUT /api/admin/loans/{id}/collateral/appraisal": { params: pledgedLoanOfA, json: () => ({ appraisal: "9000" }) },
  "POST /api/nfts/{tokenId}/collateral/claim": { params: (w) => ({ tokenId: w.heldTokenId }), json: () => ({}) },

  "GET /api/admin/loans/{id}": { params: active },
  "PUT /api/admin/loans/{id}/approve": { params: pending, json: () => ({ adminNotes: "ok" }) },
  "PUT /api/admin/loans/{id}/reject": { params: pending, json: () => ({ rejectionReason: "Insufficient income" }) },
  "PUT /api/admin/loans/{id}/decision": { params: pending, json: () => ({ decision: { status: "rejected", rejectionReason: "Insufficient income" } }) },
  "POST /api/admin/loans/{id}/default": { params: active },
  "POST /api/admin/loans/{id}/retry-listing": { params: active },
  "POST /api/admin/nfts/{id}/retry-mint": { params: active },
  "GET /api/admin/users/{id}": { params: (w) => ({ id: w.a.id }) },
  "PUT /api/admin/users/{id}/kyc": { params: (w) => ({ id: w.a.id }), json: () => ({ action: "approve" }) },
  "PUT /api/admin/treasury/notes/{tokenId}/price": { params: (w) => ({ tokenId: w.treasuryTokenIds[0] }), json: () => ({ listingPrice: "999" }) },
  "PUT /api/admin/treasury/notes/{tokenId}/unlist": { params: (w) => ({ tokenId: w.treasuryTokenIds[1] }) },
  "PUT /api/admin/treasury/notes/{tokenId}/par": { params: (w) => ({ tokenId: w.treasuryTokenIds[0] }) },
  "POST /api/admin/treasury/offers/{hash}/accept": { params: () => ({ hash: `0x${"ab".repeat(32)}` }), json: (w) => ({ tokenId: w.treasuryTokenIds[0], minPrice: "1" }) },
  "PUT /api/admin/contact/{id}/read": { params: (w) => ({ id: w.contactMessageId }) },

  "GET /api/nfts/{id}": { params: (w) => ({ id: w.heldTokenId }) },
  "GET /api/nfts/{id}/ownership": { params: (w) => ({ id: w.heldTokenId }) },
  "GET /api/nfts/{id}/page": { params: (w) => ({ id: w.heldTokenId }) },
  "PUT /api/nfts/{id}/list": { params: (w) => ({ id: w.heldTokenId }), json: () => ({ listingPrice: "2000" }) },
  "PUT /api/nfts/{id}/unlist": { params: (w) => ({ id: w.listedTokenId }) },
  "POST /api/nfts/{id}/buy": { params: (w) => ({ id: w.listedTokenId }), json: (w) => ({ expectedPrice: w.listedPrice }) },
  // Everyone asks to move A's note from A's wallet into the vault.
  "POST /api/nfts/{id}/transfer": {
    params: (w) => ({ id: w.heldTokenId }),
    json: (w) => ({ fromAddress: w.a.wallet!.address, toAddress: w.stack.deployment.contracts.vault, reason: "safekeeping" }),
  },
  "GET /api/activity/loans/{id}": { params: active },
  "GET /api/loans/{id}/statement": { params: active },
  "GET /api/portfolio/statement": { query: "from=2021-01-01&to=2030-12-31" },

  "POST /api/orders/typed-data": { json: (w) => ({ kind: "listing", tokenId: w.heldTokenId, priceKind: "par", parBps: 9900 }) },
  "POST /api/orders": { json: signedOrderOnHeldNote },
  "GET /api/orders/note/{tokenId}": { params: (w) => ({ tokenId: w.heldTokenId }) },
  "GET /api/orders/mine": {},
  "GET /api/orders/matching": {},

  "POST /api/auth/register": { json: () => newRegistration() },
  "POST /api/simple-auth/signup": { json: () => newRegistration() },
  "POST /api/auth/login": { json: login, anonymousIsA: true },
  "POST /api/simple-auth/login": { json: login, anonymousIsA: true },
  "PUT /api/auth/change-password": {
    json: () => ({ currentPassword: PASSWORD, newPassword: PASSWORD }),
    after: (answer, caller) => {
      if (caller && answer.status === 200) caller.token = answer.body.data.token;
    },
  },
  "POST /api/auth/wallet/connect": { json: (_w, caller) => ({ walletAddress: (caller?.wallet ?? privateKeyToAccount(generatePrivateKey())).address }) },
  "POST /api/auth/wallet/verify": { json: siweBody },

  "PUT /api/users/profile": { json: (_w, caller) => ({ firstName: caller?.row.firstName ?? "Anon", lastName: "Updated" }) },
  "POST /api/users/profile/upload-picture": { form: () => pngForm("profilePicture") },
  "POST /api/contact": { json: () => ({ name: "Visitor", email: "visitor@example.com", subject: "Other", message: "Hello" }) },
  // Unread only: the filter must keep the owner's scope (A's notifications are all unread when this runs).
  "GET /api/notifications": { query: "unreadOnly=true&limit=100" },
  "PUT /api/notifications/{id}/read": { params: (w) => ({ id: w.notificationId }) },
  "POST /api/chatbot/message": { json: () => ({ message: "How do I repay a loan?" }) },
  "GET /api/docs/assets/{file}": { params: () => ({ file: "init.js" }) },
  // The SPA fallback: any page that is not /api; the harness serves no built app, so it falls through to 404.
  "GET ^\\/(?!api(?:\\/|$)).*": { example: "/dashboard" },
  "POST /api/dev/faucet": { json: (_w, caller) => ({ address: (caller?.wallet ?? privateKeyToAccount(generatePrivateKey())).address }) },
};

/** Fills `{name}` parameters; a parameter without a value is a missing recipe, never a guess. */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_all, name: string) => {
    if (!(name in params)) throw new Error(`no value for {${name}} in ${path}: add a recipe in api/src/security/requests.ts`);
    return encodeURIComponent(params[name]);
  });
}
