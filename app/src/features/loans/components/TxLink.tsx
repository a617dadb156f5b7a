import type { ReactNode } from "react";
import { explorerLink, useRuntimeConfig } from "../../../lib/config";
import { shortAddress } from "../../../lib/format";

/** A transaction or address in the explorer: the app's own pages on the local chain, else the configured one. */
export function ExplorerLink({ kind, id, children }: { kind: "tx" | "address" | "token"; id: string; children?: ReactNode }) {
  const config = useRuntimeConfig().data;
  const href = explorerLink(config, kind, id);
  const external = !href.startsWith("/");
  return (
    <a href={href} target={external ? "_blank" : undefined} rel={external ? "noreferrer" : undefined}>
      {children ?? <code>{kind === "tx" ? `${id.slice(0, 10)}…${id.slice(-6)}` : shortAddress(id)}</code>}
    </a>
  );
}
