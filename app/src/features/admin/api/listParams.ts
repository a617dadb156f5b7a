export interface LoanListParams {
  page?: number;
  limit?: number;
  status?: string;
  search?: string;
  sortBy?: string;
  sortOrder?: "asc" | "desc";
  minAmount?: string;
}

/** Only the filters that are set reach the query string. */
export function listParams(params: LoanListParams) {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== "" && v !== "all"));
}
