import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { http, type Envelope } from "../../../lib/http";

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
  useEffect(
    () => () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    },
    [objectUrl],
  );
  return { ...query, objectUrl };
}

/**
 * A same-origin address the PDF frame loads by itself (a short-lived ticket stands in for the token): the page's
 * policy allows no blob: frames, and the document answers with a narrow policy of its own.
 */
export function useKycDocumentFrame(url: string | null) {
  return useQuery({
    queryKey: ["admin", "kyc-document-frame", url],
    queryFn: async () => (await http.post<Envelope<{ url: string; expiresInSeconds: number }>>(`${url!.replace(/^\/api/, "")}/view`)).data.data.url,
    enabled: Boolean(url),
    // A ticket lives five minutes; a frame opened later gets a new one.
    staleTime: 4 * 60_000,
    gcTime: 0,
  });
}
