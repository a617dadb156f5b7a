import { getAddress, verifyMessage, type Hex, type PublicClient } from "viem";
import { createSiweMessage, generateSiweNonce, parseSiweMessage, validateSiweMessage } from "viem/siwe";
import type { AppConfig } from "../config/env";
import type { KeyValueStore } from "../kv/store";
import { AppError, badRequest } from "../http/errors";
import { isPublishedDevAddress } from "#domain/publishedDevKeys";

export const SIWE_TTL_MS = 10 * 60_000;
export const SIWE_STATEMENT = "Sign in to LoanMint. This request will not trigger a blockchain transaction or cost any gas.";

export const SIWE_ANSWERS = {
  issued: "Sign this message with your wallet",
  unknownNonce: "This sign-in request is unknown, used or expired. Please try again.",
  otherAddress: "This sign-in request was issued for another wallet",
  otherMessage: "The signed message is not the one issued",
  invalidMessage: "The sign-in message is expired or was not issued for this site",
  badSignature: "Invalid wallet signature",
  publishedKey: "This wallet's private key is published (a local test account), so anyone can spend from it. Please use a wallet of your own.",
} as const;

interface IssuedRequest {
  address: string;
  message: string;
}

/**
 * EIP-4361 sign-in: the server writes the message (domain, uri, chain, nonce, issued-at, expiry), keeps it
 * under its nonce for ten minutes, and accepts exactly that message, once, signed by exactly that address.
 */
export function createSiweService(deps: { config: AppConfig; kv: KeyValueStore; publicClient: PublicClient; now: () => Date }) {
  const { config, kv } = deps;
  const key = (nonce: string) => `siwe:${nonce}`;

  return {
    async issue(walletAddress: string) {
      // Real money: a wallet anyone can sign for never signs in or links (nor could the start then trust the database).
      if (!config.isLocalChain && isPublishedDevAddress(walletAddress)) throw badRequest(SIWE_ANSWERS.publishedKey);
      const address = getAddress(walletAddress.toLowerCase());
      const nonce = generateSiweNonce();
      const issuedAt = deps.now();
      const message = createSiweMessage({
        domain: config.siweDomain,
        address,
        statement: SIWE_STATEMENT,
        uri: config.appOrigin,
        version: "1",
        chainId: config.chainId,
        nonce,
        issuedAt,
        expirationTime: new Date(issuedAt.getTime() + SIWE_TTL_MS),
      });
      const record: IssuedRequest = { address: address.toLowerCase(), message };
      await kv.set(key(nonce), JSON.stringify(record), SIWE_TTL_MS);
      return { message, nonce };
    },

    /** Returns the verified address (lowercase) or throws 401; the nonce is spent either way. */
    async verify(input: { walletAddress: string; signature: string; message: string; nonce: string }): Promise<string> {
      const stored = await kv.take(key(input.nonce));
      if (!stored) throw new AppError(401, SIWE_ANSWERS.unknownNonce);
      const record = JSON.parse(stored) as IssuedRequest;
      const address = input.walletAddress.toLowerCase();
      if (record.address !== address) throw new AppError(401, SIWE_ANSWERS.otherAddress);
      if (normalise(record.message) !== normalise(input.message)) throw new AppError(401, SIWE_ANSWERS.otherMessage);

      const parsed = parseSiweMessage(record.message);
      const checksummed = getAddress(address);
      const valid =
        parsed.chainId === config.chainId &&
        parsed.uri === config.appOrigin &&
        validateSiweMessage({ message: parsed, domain: config.siweDomain, nonce: input.nonce, address: checksummed, time: deps.now() });
      if (!valid) throw new AppError(401, SIWE_ANSWERS.invalidMessage);

      if (!(await signatureValid(deps.publicClient, checksummed, record.message, input.signature as Hex))) {
        throw new AppError(401, SIWE_ANSWERS.badSignature);
      }
      return address;
    },
  };
}

export type SiweService = ReturnType<typeof createSiweService>;

/** Wallets may hand the message back with CRLF line ends; the text must otherwise be identical. */
const normalise = (message: string) => message.replace(/\r\n/g, "\n");

/**
 * A plain account is checked locally; anything else (EIP-1271 contract wallets, ERC-6492 counterfactual
 * ones) by the chain through viem, which runs the universal validator in an eth_call.
 */
async function signatureValid(client: PublicClient, address: `0x${string}`, message: string, signature: Hex): Promise<boolean> {
  try {
    if (await verifyMessage({ address, message, signature })) return true;
  } catch {
    // not a recoverable ECDSA signature: may still be a contract wallet's
  }
  try {
    return await client.verifyMessage({ address, message, signature });
  } catch {
    return false;
  }
}
