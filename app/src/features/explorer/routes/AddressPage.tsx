import { useParams } from "react-router";
import { formatEther, isAddress } from "viem";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { useAddressInfo } from "../api/chainClient";

export function AddressPage() {
  const { address = "" } = useParams();
  if (!isAddress(address)) return <div className="container page"><PageHeader title="Address" subtitle="This is not a valid address." /></div>;
  return <AddressDetails address={address} />;
}

function AddressDetails({ address }: { address: `0x${string}` }) {
  const info = useAddressInfo(address);
  return (
    <div className="container page">
      <PageHeader title="Address" subtitle={<code className="break">{address}</code>} />
      <section className="card">
        {info.isPending ? <Spinner /> : info.isError ? <p className="field__error">The chain could not be reached.</p> : (
          <dl className="details">
            <div><dt>Type</dt><dd>{info.data.isContract ? "Contract" : "Account"}</dd></div>
            <div><dt>Balance</dt><dd>{formatEther(info.data.balance)} ETH</dd></div>
            <div><dt>Transactions sent</dt><dd>{info.data.nonce}</dd></div>
            <div><dt>Latest block</dt><dd>{info.data.block.toString()}</dd></div>
          </dl>
        )}
      </section>
    </div>
  );
}
