import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useTranslation } from "@/i18n";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { LayoutDashboard, LogOut, UserRound } from "lucide-react";
import type { User } from "@voltio/domain/account";
import { useLogout } from "@/api/session-mutations";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { ProfileFace, profileTriggerClass } from "./header/ProfileFace";

const itemClass =
  "flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5 text-sm text-ink outline-none select-none data-[highlighted]:bg-accent-soft data-[highlighted]:text-accent-strong";

/** docs/product-rules.md §1: Profile, Panel (admins only) and Logout, which asks 'Logout ?' first. */
export function ProfileMenu({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logout = useLogout();
  const [confirming, setConfirming] = useState(false);
  const [leaving, setLeaving] = useState(false);

  const accept = async () => {
    setLeaving(true);
    await logout.mutateAsync();
    setLeaving(false);
    setConfirming(false);
    void navigate("/");
  };

  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger
          aria-label={t("profileMenu.open", { name: user.firstName })}
          className={profileTriggerClass}
        >
          <ProfileFace user={user} />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={8}
            className="z-50 min-w-52 rounded-2xl border border-line bg-card p-1.5 shadow-xl"
          >
            <DropdownMenu.Label className="truncate px-3 pt-2 pb-1 text-xs text-muted">
              {user.email}
            </DropdownMenu.Label>
            <DropdownMenu.Item asChild className={itemClass}>
              <Link to="/user">
                <UserRound size={18} aria-hidden />
                {t("profileMenu.profile")}
              </Link>
            </DropdownMenu.Item>
            {user.rol === "admin" && (
              <DropdownMenu.Item asChild className={itemClass}>
                <Link to="/admin">
                  <LayoutDashboard size={18} aria-hidden />
                  {t("profileMenu.panel")}
                </Link>
              </DropdownMenu.Item>
            )}
            <DropdownMenu.Separator className="my-1 h-px bg-line" />
            <DropdownMenu.Item className={itemClass} onSelect={() => setConfirming(true)}>
              <LogOut size={18} aria-hidden />
              {t("profileMenu.logout")}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t("profileMenu.confirmLogout")}
        onAccept={() => void accept()}
        busy={leaving}
      />
    </>
  );
}
export default ProfileMenu;
