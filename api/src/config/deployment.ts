import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { deploymentSchema, type Deployment } from "#domain/deployment";

export function deploymentFile(dataDir: string, chainId: number): string {
  return join(dataDir, "deployments", `${chainId}.json`);
}

/**
 * The deployment record of the configured chain, read on each call because a deploy may happen while the
 * API runs; null when there is none yet or when it belongs to another chain.
 */
export async function readDeployment(dataDir: string, chainId: number): Promise<Deployment | null> {
  let text: string;
  try {
    text = await readFile(deploymentFile(dataDir, chainId), "utf8");
  } catch {
    return null;
  }
  const parsed = deploymentSchema.safeParse(JSON.parse(text));
  if (!parsed.success || parsed.data.chainId !== chainId) return null;
  return parsed.data;
}
