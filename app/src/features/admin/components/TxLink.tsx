import { explorerLink, useRuntimeConfig } from "../../../lib/config";

/** A transaction, address or token on the configured explorer (the app's own explorer on the local chain). */
export function ChainLink({ kind, id, label, testId }: { kind: "tx" | "address" | "token"; id: string; label?: string; testId?: string }) {
  const { data: config } = useRuntimeConfig();
  const href = explorerLink(config, kind, id);
  const external = /^https?:/.test(href);
  return (
    <a href={href} target={external ? "_blank" : undefined} rel={external ? "noreferrer" : undefined} data-testid={testId} className="mono">
      {label ?? `${id.slice(0, 10)}…${id.slice(-6)}`}
    </a>
  );
}
