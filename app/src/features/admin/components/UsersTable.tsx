import { shortAddress } from "../../../lib/format";
import type { AdminUser } from "../api/userSchema";
import { StatusBadge } from "../../../components/StatusBadge";
import { dateText } from "./money";

export function UsersTable({ users, onOpen }: { users: AdminUser[]; onOpen: (id: string) => void }) {
  return (
    <div className="card table-wrap">
      <table className="table table--cards" data-testid="users-table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Email</th>
            <th>Role</th>
            <th>Wallet</th>
            <th>KYC</th>
            <th>Loans</th>
            <th>Joined</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u._id} data-testid="user-row">
              <td data-label="Name">{`${u.firstName} ${u.lastName}`.trim() || "—"}</td>
              <td data-label="Email">{u.email || "—"}</td>
              <td data-label="Role">{u.role === "admin" ? "Admin" : u.isWalletUser ? "Wallet user" : "User"}</td>
              <td data-label="Wallet">{u.walletAddress ? <code>{shortAddress(u.walletAddress)}</code> : "—"}</td>
              <td data-label="KYC">
                <StatusBadge status={u.kycStatus} />
              </td>
              <td data-label="Loans">{u.loanCount ?? 0}</td>
              <td data-label="Joined">{dateText(u.createdAt)}</td>
              <td>
                <button type="button" className="btn btn--ghost btn--sm" onClick={() => onOpen(u._id)}>
                  View
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
