import type { User } from "@voltio/domain/account";

/**
 * Each size the app shows a face at, as classes (the initials at 38% of it): a style attribute would be refused
 * by the Content-Security-Policy on a page rendered on the server.
 */
const SIZES = {
  32: "size-8 text-[0.75rem]",
  64: "size-16 text-[1.5rem]",
  144: "size-36 text-[3.4375rem]",
} as const;

/** The profile picture, or the initials on the accent colour when there is none. */
export function Avatar({
  user,
  size,
  src,
}: {
  user: Pick<User, "firstName" | "lastName" | "profilePicture">;
  size: keyof typeof SIZES;
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
        className={`shrink-0 rounded-full bg-surface object-cover ${SIZES[size]}`}
      />
    );
  }
  const initials = `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase();
  return (
    <span
      aria-hidden
      className={`grid shrink-0 place-items-center rounded-full bg-accent font-semibold text-on-accent ${SIZES[size]}`}
    >
      {initials}
    </span>
  );
}
