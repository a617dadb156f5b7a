import { useRef, useState, type ChangeEvent, type FormEvent } from "react";
import toast from "react-hot-toast";
import { checkPicture, PROFILE_MESSAGES, profileFormSchema } from "#domain/schemas/users";
import { Avatar } from "../../../components/Avatar";
import { Field } from "../../../components/Field";
import { Spinner } from "../../../components/Spinner";
import { serverMessage } from "../../../lib/errors";
import { PROFILE_TOAST } from "../../../lib/toast";
import { addressText, kycStatusOf, phoneOf, type User } from "../../../lib/user";
import { useUpdateProfile } from "../api/updateProfile";
import { useUploadPicture } from "../api/uploadPicture";

function formFrom(user: User) {
  return { firstName: user.firstName ?? "", lastName: user.lastName ?? "", phoneNumber: phoneOf(user), address: addressText(user.address) };
}

export function ProfileInfoCard({ user }: { user: User }) {
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState(() => formFrom(user));
  const [error, setError] = useState("");
  const fileInput = useRef<HTMLInputElement>(null);
  const update = useUpdateProfile();
  const upload = useUploadPicture();
  const verified = kycStatusOf(user) === "approved";

  const startEdit = () => {
    setForm(formFrom(user));
    setError("");
    setEditing(true);
  };
  // Cancel restores the last values the server gave.
  const cancel = () => {
    setForm(formFrom(user));
    setError("");
    setEditing(false);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = profileFormSchema.safeParse(form);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? "Failed to update profile";
      setError(message);
      toast.error(message, PROFILE_TOAST.error);
      return;
    }
    try {
      await update.mutateAsync({ ...parsed.data, phoneNumber: parsed.data.phoneNumber ?? "" });
      toast.success("Profile updated successfully!", PROFILE_TOAST.success);
      setEditing(false);
    } catch (err) {
      const message = serverMessage(err, "Failed to update profile");
      setError(message);
      toast.error(message, PROFILE_TOAST.error);
    }
  };

  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    const problem = checkPicture(file);
    if (problem) {
      toast.error(problem, PROFILE_TOAST.error);
      return;
    }
    try {
      await upload.mutateAsync(file);
      toast.success("Profile picture updated successfully!", PROFILE_TOAST.success);
    } catch (err) {
      toast.error(serverMessage(err, "Failed to upload profile picture"), PROFILE_TOAST.error);
    }
  };

  const set = (key: keyof ReturnType<typeof formFrom>) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  return (
    <section className="card" aria-labelledby="profile-info-title">
      <div className="card__head">
        <h2 id="profile-info-title">Profile Information</h2>
        {!editing && (
          <button type="button" className="btn btn--secondary btn--sm" onClick={startEdit}>
            Edit
          </button>
        )}
      </div>

      <div className="profile-id">
        <div className="profile-id__avatar">
          <Avatar user={user} size={88} />
          {editing && (
            <>
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => fileInput.current?.click()} disabled={upload.isPending}>
                {upload.isPending ? (
                  <>
                    <Spinner label="Uploading" /> Uploading…
                  </>
                ) : (
                  "Change picture"
                )}
              </button>
              <input ref={fileInput} type="file" accept="image/*" hidden onChange={(e) => void pick(e)} data-testid="picture-input" aria-label="Profile picture" />
            </>
          )}
        </div>
        <div>
          <p className="profile-id__name">{[user.firstName, user.lastName].filter(Boolean).join(" ") || "User"}</p>
          <p className="muted profile-id__email">{user.email ?? (user.walletAddress ? "Wallet account" : "")}</p>
          <div className="row gap-sm">
            {verified ? (
              <span className="badge badge--success" data-testid="kyc-badge">
                ✓ Verified
              </span>
            ) : (
              <span className="badge badge--warning" data-testid="kyc-badge">
                Pending Verification
              </span>
            )}
            {user.role === "admin" && <span className="badge badge--admin">Admin</span>}
            {user.isWalletUser && <span className="badge badge--wallet">Wallet</span>}
          </div>
        </div>
      </div>

      {editing ? (
        <form onSubmit={(e) => void save(e)} noValidate className="stack" aria-label="Edit profile">
          <div className="form-grid">
            <Field label="First name" name="firstName" value={form.firstName} onChange={set("firstName")} autoComplete="given-name" />
            <Field label="Last name" name="lastName" value={form.lastName} onChange={set("lastName")} autoComplete="family-name" />
            <Field label="Email" name="email" value={user.email ?? ""} readOnly hint={PROFILE_MESSAGES.emailImmutable} />
            <Field label="Phone" name="phoneNumber" type="tel" value={form.phoneNumber} onChange={set("phoneNumber")} autoComplete="tel" />
            <Field className="span-2" label="Address" name="address" value={form.address} onChange={set("address")} autoComplete="street-address" />
          </div>
          {error && (
            <div className="alert alert--danger" role="alert">
              <p>{error}</p>
            </div>
          )}
          <div className="row gap-sm">
            <button type="submit" className="btn btn--primary" disabled={update.isPending}>
              {update.isPending ? "Saving..." : "Save"}
            </button>
            <button type="button" className="btn btn--ghost" onClick={cancel} disabled={update.isPending}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <dl className="details" data-testid="profile-view">
          <div>
            <dt>First name</dt>
            <dd>{user.firstName || "—"}</dd>
          </div>
          <div>
            <dt>Last name</dt>
            <dd>{user.lastName || "—"}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{user.email || "—"}</dd>
          </div>
          <div>
            <dt>Phone</dt>
            <dd>{phoneOf(user) || "—"}</dd>
          </div>
          <div className="span-2">
            <dt>Address</dt>
            <dd>{addressText(user.address) || "—"}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}
