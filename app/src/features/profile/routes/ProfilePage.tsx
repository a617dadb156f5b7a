import { useEffect } from "react";
import { PageHeader } from "../../../components/PageHeader";
import { Spinner } from "../../../components/Spinner";
import { useSession } from "../../../lib/session";
import { useProfile } from "../api/getProfile";
import { ProfileInfoCard } from "../components/ProfileInfoCard";
import { AccountActions } from "../components/AccountActions";
import { AdminInfo } from "../components/AdminInfo";
import { WalletCard } from "../components/WalletCard";
import { SecurityCard } from "../components/SecurityCard";

export function ProfilePage() {
  const profile = useProfile();
  const { user: sessionUser, updateUser } = useSession();

  // The server's record is the truth; the session copy follows it.
  useEffect(() => {
    if (profile.data) updateUser(profile.data);
  }, [profile.data, updateUser]);

  const user = profile.data ? { ...sessionUser, ...profile.data } : sessionUser;
  if (!user) return null;

  return (
    <div className="container page">
      <PageHeader title="Profile Settings" subtitle="Your details, your wallet and how you sign in." actions={profile.isFetching ? <Spinner label="Refreshing" /> : undefined} />
      {profile.isError && (
        <div className="alert alert--danger" role="alert">
          <p>Your profile could not be loaded from the server; showing the details saved in this browser.</p>
        </div>
      )}
      <div className="profile-grid">
        <div className="stack">
          <ProfileInfoCard key={user._id} user={user} />
          {user.role === "admin" && <AdminInfo user={user} />}
          <AccountActions />
        </div>
        <div className="stack">
          <WalletCard user={user} />
          <SecurityCard user={user} />
        </div>
      </div>
    </div>
  );
}
