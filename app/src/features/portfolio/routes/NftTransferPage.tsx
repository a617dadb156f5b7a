import { PageHeader } from "../../../components/PageHeader";
import { Readiness } from "../../../components/Readiness";

export function NftTransferPage() {
  return (
    <div className="container page">
      <PageHeader title="NFT Vault Transfer" subtitle="Deposit notes into the vault and withdraw them back. Repayments on a vaulted note still reach you." />
      <section className="card">
        <h2>Requirements</h2>
        <Readiness />
        <p className="small muted">Only the depositor can withdraw a note from the vault.</p>
      </section>
    </div>
  );
}
