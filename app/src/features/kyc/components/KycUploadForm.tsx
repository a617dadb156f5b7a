import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { ID_DOCUMENT_TYPES, KYC_FILE_FIELDS, KYC_MESSAGES } from "#domain/schemas/kyc";
import { serverMessage } from "../../../lib/errors";
import { kycUploadFormSchema, useUploadKyc, type KycFileField } from "../api/uploadKyc";

const TYPE_LABELS: Record<(typeof ID_DOCUMENT_TYPES)[number], string> = {
  passport: "Passport",
  drivers_license: "Driver's license",
  national_id: "National ID",
};

const FILE_LABELS: Record<KycFileField, { label: string; hint: string }> = {
  idDocument: { label: "ID document", hint: "A clear photo or scan of the document chosen above" },
  proofOfAddress: { label: "Proof of address", hint: "Utility bill or bank statement dated within the last 3 months" },
  proofOfIncome: { label: "Proof of income", hint: "Recent pay stubs or a tax return" },
};

/** The KYC page's document upload: one ID type and up to three files, images or PDF. */
export function KycUploadForm() {
  const upload = useUploadKyc();
  const [idDocumentType, setType] = useState<string>("passport");
  const [files, setFiles] = useState<Partial<Record<KycFileField, File>>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = kycUploadFormSchema.safeParse({ idDocumentType, files });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
      setErrors(next);
      if (next.files) toast.error(next.files);
      return;
    }
    setErrors({});
    upload.mutate(parsed.data, {
      onSuccess: ({ message }) => {
        toast.success(message || KYC_MESSAGES.submitted);
        setFiles({});
      },
      onError: (error) => toast.error(serverMessage(error, "Failed to upload documents")),
    });
  };

  return (
    <form className="card stack" onSubmit={submit} noValidate data-testid="kyc-form" aria-busy={upload.isPending}>
      <h2>Upload documents</h2>
      <div className="field">
        <label htmlFor="kyc-id-type">ID document type</label>
        <select
          id="kyc-id-type"
          value={idDocumentType}
          onChange={(e) => {
            setType(e.target.value);
            setErrors((x) => ({ ...x, idDocumentType: "" }));
          }}
        >
          {ID_DOCUMENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABELS[t]}
            </option>
          ))}
        </select>
        {errors.idDocumentType && (
          <p className="field__error" role="alert">
            {errors.idDocumentType}
          </p>
        )}
      </div>
      {KYC_FILE_FIELDS.map((field) => (
        <div key={field} className={`field${errors[field] ? " field--error" : ""}`}>
          <label htmlFor={`kyc-${field}`}>{FILE_LABELS[field].label}</label>
          <input
            id={`kyc-${field}`}
            name={field}
            type="file"
            accept="image/*,application/pdf"
            onChange={(e) => {
              const file = e.target.files?.[0];
              setFiles((f) => ({ ...f, [field]: file }));
              setErrors((x) => ({ ...x, [field]: "", files: "" }));
            }}
          />
          {errors[field] ? (
            <p className="field__error" role="alert">
              {errors[field]}
            </p>
          ) : (
            <p className="field__hint">{FILE_LABELS[field].hint}</p>
          )}
        </div>
      ))}
      {errors.files && (
        <p className="field__error" role="alert">
          {errors.files}
        </p>
      )}
      <p className="small muted">Images or PDF, up to 10MB each. Choose at least one document.</p>
      <button type="submit" className="btn btn--primary" disabled={upload.isPending}>
        {upload.isPending ? "Uploading…" : "Submit for verification"}
      </button>
    </form>
  );
}
