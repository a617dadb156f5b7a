import { useState } from "react";
import type { User } from "../../../lib/user";
import { shortAddress } from "../../../lib/format";
import { PasswordTab } from "./PasswordTab";
import { NotificationsTab } from "./NotificationsTab";

const TABS = ["Password", "Notifications", "Security"] as const;
type Tab = (typeof TABS)[number];

export function SecurityCard({ user }: { user: User }) {
  const [tab, setTab] = useState<Tab>("Password");
  return (
    <section className="card" aria-labelledby="security-title">
      <h2 id="security-title">Security Settings</h2>
      <div className="tabs" role="tablist" aria-label="Security settings">
        {TABS.map((t) => (
          <button key={t} type="button" role="tab" id={`tab-${t}`} aria-selected={tab === t} aria-controls={`panel-${t}`} className={`tab${tab === t ? " is-active" : ""}`} onClick={() => setTab(t)}>
            {t}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tabpanel">
        {tab === "Password" && <PasswordTab isWalletUser={user.isWalletUser && !user.email} />}
        {tab === "Notifications" && <NotificationsTab user={user} />}
        {tab === "Security" && (
          <dl className="details details--single">
            <div>
              <dt>Sign-in method</dt>
              <dd>
                {user.email ? "Email and password" : "Wallet signature"}
                {user.isWalletUser && user.email ? " or wallet signature" : ""}
              </dd>
            </div>
            <div>
              <dt>Verified wallet</dt>
              <dd>{user.walletAddress ? <code>{shortAddress(user.walletAddress)}</code> : "None linked"}</dd>
            </div>
            <div>
              <dt>Wallet sign-in</dt>
              <dd>Sign-In with Ethereum messages, each with a single-use nonce that expires</dd>
            </div>
            <div>
              <dt>Session</dt>
              <dd>Kept in this browser until you sign out or it expires</dd>
            </div>
          </dl>
        )}
      </div>
    </section>
  );
}
