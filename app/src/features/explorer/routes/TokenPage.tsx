import { useParams } from "react-router";
import { displayUsd } from "#domain/money";
import { bpsPercentText, unixTimeText } from "../../../lib/format";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { useToken } from "../../../lib/explorer/useToken";
import { EventsTable } from "../../../lib/explorer/EventsTable";
import { ExplorerLink } from "../../../lib/explorer/ExplorerLink";
import { tokenCollateralFromEvents } from "../../../lib/explorer/tokenCollateral";
import { PledgedNftView } from "../../../lib/nfts/PledgedNftView";
import { useCollateralPiece } from "../api/useCollateralPiece";
import "../../../lib/explorer/explorer.css";

const STATUS = ["None", "Active", "Repaid", "Defaulted"];

/** /explorer/token/{id}: the loan note on-chain — owner, terms, metadata and its whole event history. Public. */
export function TokenPage() {
  const { id = "" } = useParams();
  if (!/^[0-9]{1,78}$/.test(id))
    return (
      <div className="container page">
        <PageHeader title="Loan note" subtitle="This is not a valid token id." />
      </div>
    );
  return <TokenDetails id={BigInt(id)} />;
}

function TokenDetails({ id }: { id: bigint }) {
  const info = useToken(id);
  const d = info.data;
  const loan = d?.loan as { principal?: bigint; repaid?: bigint; start?: bigint; rateBps?: number; termMonths?: number; status?: number } | null | undefined;
  return (
    <div className="container page stack">
      <PageHeader title={`Loan note #${id}`} subtitle="Read from the chain: the note contract's state and every event about this token." />
      <section className="card">
        {info.isPending ? (
          <Spinner />
        ) : info.isError || !d ? (
          <p className="field__error" role="alert">
            The chain could not be reached.
          </p>
        ) : !d.exists ? (
          <p>No note with this id exists on this chain.</p>
        ) : (
          <dl className="details" data-testid="token-details">
            <div>
              <dt>Owner</dt>
              <dd>
                {d.owner ? (
                  <ExplorerLink kind="address" id={d.owner}>
                    <code className="break">{d.owner}</code>
                  </ExplorerLink>
                ) : (
                  "None (burned)"
                )}
              </dd>
            </div>
            {loan && loan.principal !== undefined && (
              <>
                <div>
                  <dt>Status</dt>
                  <dd data-testid="token-status">{STATUS[Number(loan.status ?? 0)]}</dd>
                </div>
                <div>
                  <dt>Principal</dt>
                  <dd>{displayUsd(loan.principal)}</dd>
                </div>
                <div>
                  <dt>Repaid</dt>
                  <dd>{displayUsd(loan.repaid ?? 0n)}</dd>
                </div>
                <div>
                  <dt>Rate</dt>
                  <dd title={`${String(loan.rateBps)} bps`}>{bpsPercentText(loan.rateBps ?? 0)}</dd>
                </div>
                <div>
                  <dt>Term</dt>
                  <dd>{String(loan.termMonths)} months</dd>
                </div>
                <div>
                  <dt>Start</dt>
                  <dd>{unixTimeText(loan.start)}</dd>
                </div>
              </>
            )}
            {d.metadata?.name && (
              <div>
                <dt>Metadata</dt>
                <dd>
                  {d.metadata.name}
                  {d.metadata.description ? ` — ${d.metadata.description}` : ""}
                </dd>
              </div>
            )}
          </dl>
        )}
      </section>
      {d?.exists && <TokenCollateralCard id={id} events={d.events} />}
      {d && (
        <section className="card stack" aria-labelledby="history-title">
          <h2 id="history-title">History</h2>
          <EventsTable key={String(id)} events={d.events} withTx />
        </section>
      )}
    </div>
  );
}

/** The NFT escrowed for this note, read from its Collateral* events and its collection. */
function TokenCollateralCard({ id, events }: { id: bigint; events: NonNullable<ReturnType<typeof useToken>["data"]>["events"] }) {
  const collateral = tokenCollateralFromEvents(events, id.toString());
  const piece = useCollateralPiece(collateral);
  if (!collateral) return null;
  return (
    <section className="card stack" aria-labelledby="token-collateral-title" data-testid="token-collateral">
      <h2 id="token-collateral-title">Collateral</h2>
      {piece.isPending ? (
        <Spinner />
      ) : piece.isError || !piece.data ? (
        <p className="field__error" role="alert">
          The collection could not be read: piece #{collateral.collateralId} of <code className="break">{collateral.collection}</code>.
        </p>
      ) : (
        <PledgedNftView nft={piece.data} valuation={false} />
      )}
      {collateral.receiver && (
        <p className="small">
          {collateral.state === "returnFailed" ? "Waiting for its borrower" : "Sent to"}{" "}
          <ExplorerLink kind="address" id={collateral.receiver}>
            <code className="break">{collateral.receiver}</code>
          </ExplorerLink>
        </p>
      )}
    </section>
  );
}
