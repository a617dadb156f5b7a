import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import type { User } from "../../../lib/user";
import { serverMessage } from "../../../lib/errors";
import { PROFILE_TOAST } from "../../../lib/toast";
import { useUpdateProfile } from "../api/updateProfile";

/**
 * Servicing reminders (due dates, missed payments, cures, defaults) are kept on the server, unlike the browser-only
 * preferences beside them, because the server sends them: the switch saves on its own as soon as it is flipped.
 */
export function RemindersSwitch({ user }: { user: User }) {
  const update = useUpdateProfile();
  // The switch shows what was chosen at once and keeps it: the saved account reaches the session a moment after the
  // save answers, and reading the session alone flipped the switch back in between.
  const [muted, setMuted] = useState(user.remindersMuted);
  useEffect(() => setMuted(user.remindersMuted), [user.remindersMuted]);
  const change = async (remind: boolean) => {
    setMuted(!remind);
    try {
      await update.mutateAsync({ remindersMuted: !remind });
      toast.success(remind ? "Servicing reminders on" : "Servicing reminders muted", PROFILE_TOAST.success);
    } catch (err) {
      setMuted(user.remindersMuted);
      toast.error(serverMessage(err, "Failed to save the reminders setting"), PROFILE_TOAST.error);
    }
  };
  return (
    <ul className="toggles">
      <li>
        <div>
          <strong>Servicing reminders</strong>
          <span className="muted small">Due dates, missed payments, cures and defaults of your loans and the notes you hold</span>
        </div>
        <label className="switch">
          <input type="checkbox" role="switch" checked={!muted} disabled={update.isPending} aria-label="Servicing reminders" onChange={(e) => void change(e.target.checked)} />
          <span aria-hidden="true" />
        </label>
      </li>
    </ul>
  );
}
