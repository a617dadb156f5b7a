import { http } from "../http";
import { unwrap } from "./unwrap";

/** Resolves once the API's chain mirror has indexed `block` (or after its own short wait), so reads show the user's own move. */
export const waitForMirror = (block: bigint) =>
  unwrap<{ blockNumber: number; caughtUp: boolean }>(http.get("/nfts/mirror", { params: { minBlock: block.toString() }, timeout: 10_000 })).catch(() => null);
