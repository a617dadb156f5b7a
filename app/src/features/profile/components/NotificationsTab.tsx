import { useState } from "react";
import toast from "react-hot-toast";
import { PROFILE_TOAST } from "../../../lib/toast";
import type { User } from "../../../lib/user";
import { RemindersSwitch } from "./RemindersSwitch";

/** Kept in this browser only, with the spec's defaults. */
export const NOTIFICATION_PREFS_KEY = "notification-preferences";
const DEFAULTS = { emailNotifications: true, smsNotifications: false, loanUpdates: true, securityAlerts: true, marketingEmails: false };
type Prefs = typeof DEFAULTS;

const LABELS: Record<keyof Prefs, [string, string]> = {
  emailNotifications: ["Email notifications", "Account activity by email"],
  smsNotifications: ["SMS notifications", "Text messages for important events"],
  loanUpdates: ["Loan updates", "Approvals, funding and repayments"],
  securityAlerts: ["Security alerts", "Sign-ins and password changes"],
  marketingEmails: ["Marketing emails", "Product news and offers"],
};

function load(): Prefs {
  try {
    return { ...DEFAULTS, ...(JSON.parse(localStorage.getItem(NOTIFICATION_PREFS_KEY) ?? "{}") as Partial<Prefs>) };
  } catch {
    return DEFAULTS;
  }
}

export function NotificationsTab({ user }: { user: User }) {
  const [prefs, setPrefs] = useState<Prefs>(load);
  const save = () => {
    localStorage.setItem(NOTIFICATION_PREFS_KEY, JSON.stringify(prefs));
    toast.success("Notification preferences updated", PROFILE_TOAST.success);
  };
  return (
    <div className="stack">
      <RemindersSwitch user={user} />
      <p className="small muted">Servicing reminders are saved to your account. The preferences below are kept in this browser only.</p>
      <ul className="toggles">
        {(Object.keys(DEFAULTS) as (keyof Prefs)[]).map((key) => (
          <li key={key}>
            <div>
              <strong>{LABELS[key][0]}</strong>
              <span className="muted small">{LABELS[key][1]}</span>
            </div>
            <label className="switch">
              <input type="checkbox" role="switch" checked={prefs[key]} aria-label={LABELS[key][0]} onChange={(e) => setPrefs((p) => ({ ...p, [key]: e.target.checked }))} />
              <span aria-hidden="true" />
            </label>
          </li>
        ))}
      </ul>
      <div>
        <button type="button" className="btn btn--primary" onClick={save}>
          Save Preferences
        </button>
      </div>
    </div>
  );
}
