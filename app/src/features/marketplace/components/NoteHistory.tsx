import { dateText, shortAddress, usd } from "../../../lib/format";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import type { NftDetails } from "../api/getNft";
import type { Ownership } from "../api/getOwnership";

const KIND_LABELS: Record<Ownership["history"][number]["kind"], string> = {
  mint: "Minted",
  sale: "Sold",
  transfer: "Transferred",
  vault_deposit: "Deposited in vault",
  vault_withdraw: "Withdrawn from vault",
  burn: "Repaid and burned",
};

export function RepaymentHistory({ nft }: { nft: NftDetails }) {
  if (nft.repayments.length === 0)
    return (
      <p className="muted small" data-testid="repayments-empty">
        No repayments yet.
      </p>
    );
  return (
    <div className="table-wrap">
      <table className="table table--cards" data-testid="repayments">
        <thead>
          <tr>
            <th>Date</th>
            <th>Amount</th>
            <th>Total repaid</th>
            <th>Credited to</th>
            <th>Transaction</th>
          </tr>
        </thead>
        <tbody>
          {nft.repayments.map((r) => (
            <tr key={r.txHash + r.totalRepaid}>
              <td data-label="Date">{dateText(r.time)}</td>
              <td data-label="Amount">{usd(r.amount)}</td>
              <td data-label="Total repaid">{usd(r.totalRepaid)}</td>
              <td data-label="Credited to">
                <ExplorerLink kind="address" id={r.beneficiary} />
              </td>
              <td data-label="Transaction">
                <ExplorerLink kind="tx" id={r.txHash} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `claimed`: the note was burned by the claim of its escrowed NFT after a default, not by its last repayment. */
export function OwnerHistory({ ownership, claimed = false }: { ownership: Ownership | undefined; claimed?: boolean }) {
  if (!ownership) return null;
  return (
    <div className="table-wrap">
      <table className="table table--cards" data-testid="owner-history">
        <thead>
          <tr>
            <th>Date</th>
            <th>Event</th>
            <th>From</th>
            <th>To</th>
            <th>Price</th>
            <th>Transaction</th>
          </tr>
        </thead>
        <tbody>
          {ownership.history.map((h) => (
            <tr key={h.txHash + h.kind + h.to}>
              <td data-label="Date">{dateText(h.time)}</td>
              <td data-label="Event">{h.kind === "burn" && claimed ? "Burned when its NFT was claimed" : KIND_LABELS[h.kind]}</td>
              <td data-label="From">
                {h.kind === "mint" ? (
                  "—"
                ) : (
                  <ExplorerLink kind="address" id={h.from}>
                    <code>{shortAddress(h.from)}</code>
                  </ExplorerLink>
                )}
              </td>
              <td data-label="To">
                {h.kind === "burn" ? (
                  "—"
                ) : (
                  <ExplorerLink kind="address" id={h.to}>
                    <code>{shortAddress(h.to)}</code>
                  </ExplorerLink>
                )}
              </td>
              <td data-label="Price">{h.price ? usd(h.price) : "—"}</td>
              <td data-label="Transaction">
                <ExplorerLink kind="tx" id={h.txHash} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
