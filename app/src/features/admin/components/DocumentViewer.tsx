import { useKycDocumentFrame, useKycDocumentUrl } from "../api/getKycDocument";
import type { KycDocument } from "../api/userSchema";
import { Spinner } from "../../../components/Spinner";

const LABELS: Record<string, string> = { idDocument: "ID document", proofOfAddress: "Proof of address", proofOfIncome: "Proof of income" };

/** One KYC document shown in place: images as images, PDFs in the browser's viewer. */
export function DocumentViewer({ doc }: { doc: KycDocument }) {
  const pdf = doc.mimeType === "application/pdf";
  const { objectUrl, isLoading, isError, refetch } = useKycDocumentUrl(doc.url);
  const frame = useKycDocumentFrame(pdf ? doc.url : null);
  const label = LABELS[doc.kind] ?? doc.kind;
  return (
    <figure className="admin-doc" data-testid={`kyc-doc-${doc.kind}`}>
      <figcaption className="row gap" style={{ justifyContent: "space-between" }}>
        <strong>{label}</strong>
        <span className="muted small">
          {doc.originalName ?? doc.mimeType} · {Math.ceil(doc.size / 1024)} KB
        </span>
      </figcaption>
      {isLoading ? (
        <div className="center">
          <Spinner label={`Loading ${label}`} />
        </div>
      ) : isError || !objectUrl ? (
        <div className="alert alert--danger small" role="alert">
          Could not load this document.{" "}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void refetch()}>
            Retry
          </button>
        </div>
      ) : pdf ? (
        frame.data ? (
          <iframe src={frame.data} title={label} />
        ) : frame.isError ? (
          <div className="alert alert--danger small" role="alert">
            Could not open the preview.{" "}
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => void frame.refetch()}>
              Retry
            </button>
          </div>
        ) : (
          <div className="center">
            <Spinner label={`Opening ${label}`} />
          </div>
        )
      ) : (
        <img src={objectUrl} alt={label} />
      )}
      {objectUrl && (
        <a href={objectUrl} download={`${doc.kind}`} className="small">
          Download
        </a>
      )}
    </figure>
  );
}
