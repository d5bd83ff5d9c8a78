import type { User } from "@voltio/domain/account";

/** The profile picture, or the initials on the accent colour when there is none. */
export function Avatar({
  user,
  size,
  src,
}: {
  user: Pick<User, "firstName" | "lastName" | "profilePicture">;
  size: number;
  /** Shown instead of the saved picture, e.g. a new one waiting for 'Confirm image'. */
  src?: string;
}) {
  const picture = src ?? user.profilePicture;
  if (picture) {
    return (
      <img
        src={picture}
        alt=""
        width={size}
        height={size}
        referrerPolicy="no-referrer"
        className="shrink-0 rounded-full bg-surface object-cover"
        style={{ width: size, height: size }}
      />
    );
  }
  const initials = `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase();
  return (
    <span
      aria-hidden
      className="grid shrink-0 place-items-center rounded-full bg-accent font-semibold text-on-accent"
      style={{ width: size, height: size, fontSize: Math.round(size * 0.38) }}
    >
      {initials}
    </span>
  );
}
