import { useQuery } from "@tanstack/react-query";
import { wireLoanStatementSchema, type WireLoanStatement } from "#domain/wire/statement";
import { http, type Envelope } from "../../../lib/http";

/** GET /loans/{id}/statement, parsed with the schema the API is typed by. */
export async function getLoanStatement(id: string): Promise<WireLoanStatement> {
  const { data } = await http.get<Envelope<unknown>>(`/loans/${encodeURIComponent(id)}/statement`);
  return wireLoanStatementSchema.parse(data.data);
}

export function useLoanStatement(id: string | undefined) {
  return useQuery({ queryKey: ["statements", "loan", id ?? ""], queryFn: () => getLoanStatement(id!), enabled: Boolean(id), retry: false });
}
