import { shortAddress } from "../../../lib/format";

/** What a confirmed vault move says: it happened (the transaction is mined), and where the note now is. */
export function vaultMoveDone(kind: "deposit" | "withdraw", tokenId: string, to: string): string {
  return kind === "deposit" ? `Note #${tokenId} is in the vault` : `Note #${tokenId} is out of the vault, held by ${shortAddress(to)}`;
}
