import type { LoansRepository } from "./repository";

/** How long an admin's request waits for the indexer before answering with what the database holds. */
export const MIRROR_WAIT_MS = 5_000;

/**
 * Read-your-writes for the loan changes the indexer owns (active/minted, completed, defaulted): after the API's own
 * transaction is mined, waits until the mirror has indexed its block, so the answer shows the loan as the chain
 * left it. True when it did within the time; otherwise the loan follows moments later (and loan:status says so).
 */
export async function waitForMirror(repo: Pick<LoansRepository, "mirrorBlock">, block: bigint | number, timeoutMs = MIRROR_WAIT_MS): Promise<boolean> {
  const target = Number(block);
  const until = Date.now() + timeoutMs;
  for (;;) {
    if ((await repo.mirrorBlock()) >= target) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
