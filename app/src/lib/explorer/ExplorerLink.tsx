import type { ReactNode } from "react";
import { Link } from "react-router";
import { explorerLink, useRuntimeConfig } from "../config";
import { shortAddress } from "../format";

/** A link to a transaction, address or token page: the app's own explorer on the local chain, else the configured one. */
export function ExplorerLink({ kind, id, children, className, testId }: { kind: "tx" | "address" | "token"; id: string; children?: ReactNode; className?: string; testId?: string }) {
  const config = useRuntimeConfig().data;
  const href = tokenAware(config, kind, id);
  const label = children ?? <code>{kind === "address" ? shortAddress(id) : kind === "tx" ? `${id.slice(0, 10)}…${id.slice(-6)}` : `#${id}`}</code>;
  if (href.startsWith("/"))
    return (
      <Link to={href} className={className} data-testid={testId}>
        {label}
      </Link>
    );
  return (
    <a href={href} target="_blank" rel="noreferrer" className={className} data-testid={testId}>
      {label}
    </a>
  );
}

/** Public explorers show an ERC-721 token under its contract (as the API's explorerUrl does): /token/{contract}?a={id}. */
function tokenAware(config: Parameters<typeof explorerLink>[0], kind: "tx" | "address" | "token", id: string) {
  const base = config?.explorerUrl?.replace(/\/$/, "");
  if (kind === "token" && base && config?.contracts) return `${base}/token/${config.contracts.loanNote}?a=${id}`;
  return explorerLink(config, kind, id);
}
