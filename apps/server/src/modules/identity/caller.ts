/**
 * Who is calling: what the route guard (http/access.ts) learnt from the access token, and what every service
 * that acts for someone is handed. Below the feature modules, auth and audit, so all of them can name it.
 */
export interface Caller {
  id: number;
  /** The role now, read from the database: what the caller may do. */
  rol: "user" | "admin";
  /** The session (login) the access token was issued for. */
  sessionId: string;
  /** The session proved a second factor (authenticator code, recovery code or passkey) at sign-in. */
  secondFactor: boolean;
  /**
   * The access token was issued under the other role: an admin changed this user's role since. Only a
   * notice for the client (ROLE_CHANGED_HEADER); powers always follow `rol`.
   */
  roleChanged?: boolean;
}
