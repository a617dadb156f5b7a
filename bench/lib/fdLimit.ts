import { readFileSync } from "node:fs";

/** The soft limit on open files of this process (children inherit it), or null where /proc is not there. */
export function openFileLimit(): number | null {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = line?.split(/\s{2,}/)[1];
    return soft === undefined ? null : soft === "unlimited" ? Infinity : Number(soft);
  } catch {
    return null;
  }
}

/**
 * Every socket is a file descriptor: a process holding `needed` of them stops with EMFILE half-way through,
 * which reads like a server bug. Refuse to start instead, saying how to raise the limit.
 */
export function requireOpenFiles(needed: number, what: string): void {
  const limit = openFileLimit();
  if (limit === null || limit >= needed) return;
  console.error(
    `[bench] ${what} needs about ${needed} open files per process, but this shell allows ${limit} (ulimit -n).\n` +
      `        Raise it for this shell and run again:  ulimit -n ${Math.max(4096, needed)}\n` +
      `        (above the hard limit, ${readHard() ?? "see ulimit -Hn"}, it needs root or /etc/security/limits.conf).`,
  );
  process.exit(2);
}

function readHard(): string | null {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    return line?.split(/\s{2,}/)[2] ?? null;
  } catch {
    return null;
  }
}
