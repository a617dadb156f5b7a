import type { ActivityEntry } from "../api/getLoanActivity";
import type { WireTimelineEntry as TimelineEntry } from "#domain/wire/loan";
import { usd } from "../../../lib/format";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";

const ACTIONS: Record<string, string> = {
  requested: "Loan requested",
  approved: "Approved",
  rejected: "Rejected",
  mint_sent: "Funding and mint sent",
  minted: "Note minted",
  mint_failed: "Minting failed",
  mint_retried: "Minting retried",
  listed: "Note listed on the marketplace",
  listing_failed: "Listing failed",
  unlisted: "Note unlisted",
  completed: "Loan completed",
  defaulted: "Loan defaulted",
  // The pledged NFT: the appraisal, then the escrow's moves at their blocks' times, each with its transaction.
  collateral_appraised: "NFT appraised",
  collateral_locked: "NFT locked in escrow",
  collateral_return_failed: "NFT return failed",
  collateral_returned: "NFT returned",
  collateral_claimed: "NFT claimed by the note's holder",
};

const CHAIN: Record<string, (e: ActivityEntry) => string> = {
  loan_disbursement: (e) => `Principal of ${usd(e.amount)} paid to the borrower's wallet`,
  repayment: (e) => `Repayment of ${usd(e.amount)}`,
  nft_sale: (e) => `Note sold for ${usd(e.amount)}`,
  nft_transfer: () => "Note transferred",
  vault_deposit: () => "Note deposited to the vault",
  vault_withdraw: () => "Note withdrawn from the vault",
  mint: () => "Note minted on-chain",
  burn: () => "Note burned: loan repaid in full",
};

interface Item {
  key: string;
  at: string | null;
  title: string;
  notes?: string | null;
  txHash?: string | null;
}

/** The loan's life: decisions with their notes from the API, and each on-chain step from the mirror. */
export function Timeline({ events, chain }: { events: TimelineEntry[]; chain: ActivityEntry[] }) {
  const items: Item[] = [
    ...events.map((e, i) => ({
      key: `e${i}`,
      at: e.at,
      title: ACTIONS[e.action] ?? e.action.replace(/_/g, " "),
      notes: [e.notes, e.by?.name ? `by ${e.by.name}` : null].filter(Boolean).join(" · "),
      txHash: e.txHash,
    })),
    // The origination is already told by the "minted" event; the mirror adds funding, repayments, sales and the burn.
    ...chain.filter((c) => c.kind !== "mint").map((c) => ({ key: `${c.txHash}-${c.logIndex}-${c.kind}`, at: c.time ?? null, title: (CHAIN[c.kind] ?? (() => c.kind))(c), txHash: c.txHash })),
  ].sort((a, b) => (a.at ? Date.parse(a.at) : 0) - (b.at ? Date.parse(b.at) : 0));
  if (!items.length) return <p className="muted">Nothing has happened yet.</p>;
  return (
    <ol className="timeline" data-testid="timeline">
      {items.map((item) => (
        <li key={item.key}>
          <strong>{item.title}</strong>
          <div className="small muted">
            {item.at ? new Date(item.at).toLocaleString() : "time pending"}
            {item.notes ? ` — ${item.notes}` : ""}
            {item.txHash ? (
              <>
                {" "}
                · <ExplorerLink kind="tx" id={item.txHash} />
              </>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
