import { useTranslation } from "@/i18n";
import { useSession } from "@/api/session";
import { usePageTitle } from "@/components/page-title";
import { Overview } from "./Overview";
import { PasskeysCard } from "./PasskeysCard";
import { PictureEditor } from "./PictureEditor";
import { TwoStepSection } from "./TwoStepSection";
import { SessionsCard } from "./SessionsCard";
import { UserDataCard } from "./UserDataCard";

/**
 * /user (docs/product-rules.md §1, Profile): the big picture and full name, the 'User Data' card where each field is edited
 * on its own, the addresses, and the Overview of wishlist, cart and purchases. Behind the login guard.
 */
export function ProfilePage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("profile.title") }));
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="sr-only">{t("profile.title")}</h1>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
        <PictureEditor user={user} />
        <UserDataCard user={user} />
      </div>
      <TwoStepSection />
      <Overview />
      <SessionsCard />
      <PasskeysCard />
      {/* docs/product-rules.md §1: these exist but are not visible to users. */}
      <div hidden>
        <button type="button">{t("profile.subscribeNewsletter")}</button>
        <button type="button">{t("profile.deleteAccount")}</button>
      </div>
    </div>
  );
}

export default ProfilePage;
