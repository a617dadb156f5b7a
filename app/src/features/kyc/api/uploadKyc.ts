import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { ID_DOCUMENT_TYPES, KYC_FILE_FIELDS, KYC_MESSAGES, MAX_KYC_FILE_BYTES } from "#domain/schemas/kyc";
import { http, type Envelope } from "../../../lib/http";
import { useSession } from "../../../lib/session";
import { userSchema } from "../../../lib/user";
import { kycStatusKey } from "./getKycStatus";

export type KycFileField = (typeof KYC_FILE_FIELDS)[number];

const isDocument = (file: File) => file.type === "application/pdf" || file.type.startsWith("image/") || file.type === "";

/** The form's rules, with the messages the server answers. */
export const kycUploadFormSchema = z
  .object({
    idDocumentType: z.enum(ID_DOCUMENT_TYPES, { error: KYC_MESSAGES.documentType }),
    files: z.partialRecord(z.enum(KYC_FILE_FIELDS), z.instanceof(File)),
  })
  .superRefine((value, ctx) => {
    const chosen = Object.entries(value.files).filter(([, f]) => f);
    if (!chosen.length) ctx.addIssue({ code: "custom", message: KYC_MESSAGES.noDocuments, path: ["files"] });
    for (const [field, file] of chosen) {
      if (!isDocument(file!)) ctx.addIssue({ code: "custom", message: KYC_MESSAGES.fileType, path: [field] });
      else if (file!.size > MAX_KYC_FILE_BYTES) ctx.addIssue({ code: "custom", message: KYC_MESSAGES.fileSize, path: [field] });
    }
  });
export type KycUploadForm = z.infer<typeof kycUploadFormSchema>;

/** POST /users/kyc/upload (multipart); the answer is the updated user, which the session adopts. */
export async function uploadKyc(form: KycUploadForm) {
  const body = new FormData();
  body.append("idDocumentType", form.idDocumentType);
  for (const field of KYC_FILE_FIELDS) {
    const file = form.files[field];
    if (file) body.append(field, file);
  }
  const { data } = await http.post<Envelope<unknown>>("/users/kyc/upload", body);
  return { user: userSchema.parse(data.data), message: data.message };
}

export function useUploadKyc() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadKyc,
    onSuccess: ({ user }) => {
      useSession.getState().updateUser({ kycStatus: user.kycStatus ?? "pending", kyc: user.kyc });
      return queryClient.invalidateQueries({ queryKey: kycStatusKey });
    },
  });
}
