/** A fetched range of blocks: its first and last block, and the last one's hash. */
export interface BlockRange {
  from: number;
  to: number;
  toHash: string;
}
