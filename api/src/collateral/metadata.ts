import { BaseError, decodeFunctionResult, encodeFunctionData, erc721Abi, HttpRequestError, TimeoutError, type Address, type Hex, type PublicClient } from "viem";
import { checkedImageDataUri, MAX_NFT_IMAGE_BYTES } from "#domain/nftImage";

/**
 * What LoanMint keeps of another collection's piece (docs/decisions.md "NFT collateral off-chain"): a name and a
 * checked image data URI, each null when the collection gives nothing usable. A tokenURI is read only when it is an
 * on-chain JSON data URI: a remote address is never fetched.
 */
export interface PieceMetadata {
  name: string | null;
  image: string | null;
}

const NOTHING: PieceMetadata = { name: null, image: null };

/** Room for a checked image (base64) inside base64 JSON, and the JSON around it; anything longer is not parsed. */
export const MAX_TOKEN_URI_CHARS = Math.ceil((MAX_NFT_IMAGE_BYTES * 4) / 3) * 2 + 16 * 1024;
/** An ABI-encoded string answer: 64 bytes of head and the text, as hex. */
const MAX_ANSWER_HEX = 2 + 2 * (128 + MAX_TOKEN_URI_CHARS);
const MAX_NAME_CHARS = 120;
/** A view gets this much gas: enough for on-chain art, not for a collection that loops forever. */
const READ_GAS = 30_000_000n;

const BASE64_JSON = /^data:application\/json;base64,([A-Za-z0-9+/]*={0,2})$/;
const TEXT_JSON = /^data:application\/json(?:;charset=utf-8|;utf8)?,/i;

/** A display name: text without control characters, trimmed and shortened; anything else is null. */
export function cleanName(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, "").trim();
  return text ? text.slice(0, MAX_NAME_CHARS) : null;
}

/** The JSON text of an on-chain metadata URI, or null for anything else (remote, HTML, malformed, oversized). */
function jsonText(uri: string): string | null {
  const base64 = BASE64_JSON.exec(uri);
  if (base64) return Buffer.from(base64[1], "base64").toString("utf8");
  const text = TEXT_JSON.exec(uri);
  if (!text) return null;
  try {
    return decodeURIComponent(uri.slice(text[0].length));
  } catch {
    return null;
  }
}

/** Parses a tokenURI into the name and checked image it names; never throws. */
export function parseTokenUri(uri: unknown): PieceMetadata {
  if (typeof uri !== "string" || uri.length > MAX_TOKEN_URI_CHARS) return NOTHING;
  const text = jsonText(uri.trim());
  if (text === null) return NOTHING;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return NOTHING;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return NOTHING;
  const fields = json as Record<string, unknown>;
  return { name: cleanName(fields.name), image: checkedImageDataUri(fields.image) };
}

/** The node could not be asked (as opposed to a collection that answered badly): nothing is cached then. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof BaseError && error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError) !== null;
}

/**
 * A string view of a collection (`name()` or `tokenURI(id)`), read raw so an oversized answer is refused before it
 * is decoded; null when the collection reverts or answers something that is not a bounded string. Throws only when
 * the node cannot be reached.
 */
export async function readStringView(client: PublicClient, collection: Address, call: { functionName: "name" } | { functionName: "tokenURI"; tokenId: bigint }): Promise<string | null> {
  const data = call.functionName === "name" ? encodeFunctionData({ abi: erc721Abi, functionName: "name" }) : encodeFunctionData({ abi: erc721Abi, functionName: "tokenURI", args: [call.tokenId] });
  let answer: Hex | undefined;
  try {
    ({ data: answer } = await client.call({ to: collection, data, gas: READ_GAS }));
  } catch (error) {
    if (isUnreachable(error)) throw error;
    return null;
  }
  if (!answer || answer.length > MAX_ANSWER_HEX) return null;
  try {
    return decodeFunctionResult({ abi: erc721Abi, functionName: call.functionName, data: answer }) as string;
  } catch {
    return null;
  }
}

/** A piece's metadata read from its collection; throws only when the node cannot be reached. */
export async function readPieceMetadata(client: PublicClient, collection: Address, tokenId: bigint): Promise<PieceMetadata> {
  return parseTokenUri(await readStringView(client, collection, { functionName: "tokenURI", tokenId }));
}
