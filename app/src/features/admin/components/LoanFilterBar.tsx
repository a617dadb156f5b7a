import type { ReactNode } from "react";
import { STATUS_OPTIONS } from "./loanFilters";

interface LoanFilterBarProps {
  /** Prefix of the inputs' ids ("loan" → loan-search, loan-status). */
  idPrefix: string;
  placeholder: string;
  search: string;
  status: string;
  /** Both reset the list to its first page in the caller. */
  onSearch(value: string): void;
  onStatus(value: string): void;
  /** Further fields after search and status, e.g. a sort. */
  children?: ReactNode;
}

/** Search and status filter over loan lists, shared by the loans and requests pages. */
export function LoanFilterBar({ idPrefix, placeholder, search, status, onSearch, onStatus, children }: LoanFilterBarProps) {
  return (
    <div className="admin-toolbar">
      <div className="field field--grow">
        <label htmlFor={`${idPrefix}-search`}>Search</label>
        <input id={`${idPrefix}-search`} type="search" placeholder={placeholder} value={search} onChange={(e) => onSearch(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-status`}>Status</label>
        <select id={`${idPrefix}-status`} value={status} onChange={(e) => onStatus(e.target.value)}>
          {STATUS_OPTIONS.map((s) => (
            <option key={s} value={s}>
              {s === "all" ? "All statuses" : s}
            </option>
          ))}
        </select>
      </div>
      {children}
    </div>
  );
}
