import type { ChainCollateralState } from "#domain/statuses";
import type { ArgValue, DecodedEvent } from "./chain";

/** The CollateralEscrow's events about an escrowed NFT, by the state each leaves it in. */
const COLLATERAL_EVENTS: Record<string, ChainCollateralState> = {
  CollateralLocked: "locked",
  CollateralReturnFailed: "returnFailed",
  CollateralReturned: "returned",
  CollateralClaimed: "claimed",
};

const text = (value: ArgValue | undefined) => (value === undefined ? null : typeof value === "string" ? value : String(value.value));
const arg = (event: DecodedEvent, name: string) => text(event.args.find((a) => a.name === name)?.value);

/**
 * A Collateral* event of another note: the token page looks its id up in the third indexed place too (where
 * Transfer keeps it), and there these events keep the escrowed piece's own id.
 */
export function isOtherNotesCollateralEvent(event: DecodedEvent, tokenId: string): boolean {
  return event.contract === "CollateralEscrow" && event.name in COLLATERAL_EVENTS && arg(event, "tokenId") !== tokenId;
}

export interface TokenCollateral {
  collection: string;
  collateralId: string;
  state: ChainCollateralState;
  /** The receiver of a return or a claim (the borrower of a failed return). */
  receiver: string | null;
  txHash: string | null;
}

/** Where the note's escrowed NFT stands, from its own Collateral* events (oldest first); null when it never had one. */
export function tokenCollateralFromEvents(events: DecodedEvent[], tokenId: string): TokenCollateral | null {
  let found: TokenCollateral | null = null;
  for (const event of events) {
    const state = event.contract === "CollateralEscrow" ? COLLATERAL_EVENTS[event.name] : undefined;
    if (!state || arg(event, "tokenId") !== tokenId) continue;
    const collection = arg(event, "collection");
    const collateralId = arg(event, "collateralId");
    if (!collection || !collateralId) continue;
    found = {
      collection: collection.toLowerCase(),
      collateralId,
      state,
      receiver: state === "locked" ? null : ((arg(event, "to") ?? arg(event, "borrower"))?.toLowerCase() ?? null),
      txHash: event.txHash,
    };
  }
  return found;
}

/** The `name` and `image` of an ERC-721's on-chain JSON metadata (a data URI, base64 or not); null otherwise. */
export function metadataOfDataUri(uri: string | null | undefined): { name: string | null; image: unknown } | null {
  if (!uri) return null;
  let json: string | null = null;
  try {
    if (uri.startsWith("data:application/json;base64,")) json = atob(uri.slice("data:application/json;base64,".length));
    else if (uri.startsWith("data:application/json,")) json = decodeURIComponent(uri.slice("data:application/json,".length));
  } catch {
    return null;
  }
  if (json === null) return null;
  try {
    const parsed = JSON.parse(json) as { name?: unknown; image?: unknown };
    if (!parsed || typeof parsed !== "object") return null;
    return { name: typeof parsed.name === "string" ? parsed.name.slice(0, 200) : null, image: parsed.image };
  } catch {
    return null;
  }
}
