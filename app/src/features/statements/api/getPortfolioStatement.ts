import { useQuery } from "@tanstack/react-query";
import { wirePortfolioStatementSchema, type WirePortfolioStatement } from "#domain/wire/statement";
import type { StatementPeriod } from "#domain/schemas/statements";
import { http, type Envelope } from "../../../lib/http";

/** GET /portfolio/statement for a period, parsed with the schema the API is typed by. */
export async function getPortfolioStatement(period: StatementPeriod): Promise<WirePortfolioStatement> {
  const { data } = await http.get<Envelope<unknown>>("/portfolio/statement", { params: period });
  return wirePortfolioStatementSchema.parse(data.data);
}

export function usePortfolioStatement(period: StatementPeriod | null) {
  return useQuery({ queryKey: ["statements", "portfolio", period], queryFn: () => getPortfolioStatement(period!), enabled: period !== null, retry: false });
}
