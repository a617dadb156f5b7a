import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { http } from "../../../lib/http";

/** GET /users/kyc/documents/{id} with the admin's token: the file as a blob (documents are never public). */
export async function getKycDocument(url: string): Promise<Blob> {
  const path = url.replace(/^\/api/, "");
  const { data } = await http.get<Blob>(path, { responseType: "blob" });
  return data;
}

/** An object URL of the document while the viewer shows it, revoked afterwards. */
export function useKycDocumentUrl(url: string | null) {
  const query = useQuery({ queryKey: ["admin", "kyc-document", url], queryFn: () => getKycDocument(url!), enabled: Boolean(url), staleTime: Infinity, gcTime: 60_000 });
  const objectUrl = useMemo(() => (query.data ? URL.createObjectURL(query.data) : null), [query.data]);
  useEffect(() => () => { if (objectUrl) URL.revokeObjectURL(objectUrl); }, [objectUrl]);
  return { ...query, objectUrl };
}
