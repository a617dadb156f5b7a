import { useParams } from "react-router";
import { formatEther, isAddress, type Address } from "viem";
import { displayUsd } from "#domain/money";
import { ethText } from "../../../lib/format";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { useRuntimeConfig } from "../../../lib/config";
import { addressLabel } from "../../../lib/explorer/chain";
import { useAddress } from "../api/hooks";
import { EventsTable } from "../../../lib/explorer/EventsTable";
import "../../../lib/explorer/explorer.css";

/** /explorer/address/{address}: balances and every event of our contracts that names the address. Public. */
export function AddressPage() {
  const { address = "" } = useParams();
  if (!isAddress(address))
    return (
      <div className="container page">
        <PageHeader title="Address" subtitle="This is not a valid address." />
      </div>
    );
  return <AddressDetails address={address} />;
}

function AddressDetails({ address }: { address: Address }) {
  const info = useAddress(address);
  const config = useRuntimeConfig().data;
  const label = addressLabel(config, address);
  const d = info.data;
  return (
    <div className="container page stack">
      <PageHeader title={label ? `Address — ${label}` : "Address"} subtitle={<code className="break">{address}</code>} />
      <section className="card">
        {info.isPending ? (
          <Spinner />
        ) : info.isError || !d ? (
          <p className="field__error" role="alert">
            The chain could not be reached.
          </p>
        ) : (
          <dl className="details" data-testid="address-details">
            <div>
              <dt>Type</dt>
              <dd>{d.contract ? `Contract (${d.contract})` : d.isContract ? "Contract" : "Account"}</dd>
            </div>
            <div>
              <dt>Balance</dt>
              <dd data-testid="address-eth" title={`${formatEther(d.balance)} ETH`}>
                {ethText(d.balance)}
              </dd>
            </div>
            {d.dollars !== null && (
              <div>
                <dt>Test dollars</dt>
                <dd data-testid="address-dollars">{displayUsd(d.dollars)}</dd>
              </div>
            )}
            {d.notes !== null && (
              <div>
                <dt>Loan notes held</dt>
                <dd>{d.notes.toString()}</dd>
              </div>
            )}
            {d.credits !== null && (
              <div>
                <dt>Repayments to withdraw</dt>
                <dd>{displayUsd(d.credits)}</dd>
              </div>
            )}
            <div>
              <dt>Transactions sent</dt>
              <dd>{d.nonce}</dd>
            </div>
          </dl>
        )}
      </section>
      {d && (
        <section className="card stack" aria-labelledby="activity-title">
          <h2 id="activity-title">Activity</h2>
          <EventsTable key={address} events={d.events} withTx />
        </section>
      )}
    </div>
  );
}
