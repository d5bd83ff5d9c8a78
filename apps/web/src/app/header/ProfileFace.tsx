import { ChevronDown } from "lucide-react";
import type { User } from "@voltio/domain/account";
import { Avatar } from "@/components/Avatar";
import { focusRingClass } from "@/components/ui/focus-ring";

export const profileTriggerClass = `inline-flex h-10 items-center gap-2 rounded-xl px-0.5 text-sm sm:h-11 sm:px-1.5 font-medium text-ink transition hover:bg-accent-soft ${focusRingClass} lg:px-2`;

/**
 * What the profile menu's button shows: the header draws it while the menu's code is on its way, so the
 * button keeps its width when the menu arrives and the icons beside it (Panel, Purchases) do not move.
 */
export function ProfileFace({ user }: { user: User }) {
  return (
    <>
      <Avatar user={user} size={32} />
      <span className="hidden max-w-28 truncate lg:inline">{user.firstName}</span>
      <ChevronDown size={16} aria-hidden className="hidden text-muted lg:inline" />
    </>
  );
}
