/**
 * An admin changed the signed-in user's role: the server keeps the login and says so on
 * the next replies with this header, naming the new role. The client then takes an access token of the new
 * role (which ends the header), re-reads the user so menus and guards follow, and tells the user once.
 */
export const ROLE_CHANGED_HEADER = "voltio-role-changed";

/** Fired on window once per change, with the new role as `detail`: the screens tell the user. */
export const ROLE_CHANGED_EVENT = "voltio:role-changed";

export type NewRole = "user" | "admin";

export function roleChangedTo(response: Response): NewRole | null {
  const role = response.headers.get(ROLE_CHANGED_HEADER);
  return role === "user" || role === "admin" ? role : null;
}

/** Access tokens whose replies were already dealt with: requests sent together tell the user once. */
const handled = new Set<string>();

export interface RoleChangeActions {
  /** A new access token for the login (of the new role). */
  renewToken: (oldAccess: string) => Promise<boolean>;
  /** The stored session changed: every reader of the user re-reads it. */
  sessionChanged: () => void;
}

export async function noticeRoleChange(
  role: NewRole,
  access: string | null,
  { renewToken, sessionChanged }: RoleChangeActions,
): Promise<void> {
  if (!access || handled.has(access)) return;
  handled.add(access);
  await renewToken(access);
  sessionChanged();
  window.dispatchEvent(new CustomEvent<NewRole>(ROLE_CHANGED_EVENT, { detail: role }));
}
