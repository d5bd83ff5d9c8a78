import { and, isNull, sql } from "drizzle-orm";
import type { EmailCheckReply } from "@voltio/domain/account";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { Conflict, NotSignedIn } from "../../errors";
import type { GoogleVerifier } from "./google";
import { dummyPasswordHash, verifyPassword } from "./password";
import { startSession, type SessionTokens } from "./sessions";

/** The live account with this e-mail, whatever its case (deleted accounts don't count). */
export async function findUserByEmail(db: Db, email: string) {
  const [user] = await db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      googleUser: users.googleUser,
    })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email.trim()})`, isNull(users.deletedAt)));
  return user;
}

/** POST /user/email: tells the login screen whether to show Login, Register or Google sign-in. */
export async function checkEmail(db: Db, email: string): Promise<EmailCheckReply> {
  const user = await findUserByEmail(db, email);
  return user
    ? { msg: "email exists", googleUser: user.googleUser }
    : { msg: "email doesn't exist", googleUser: false };
}

/** The one answer for a missing account and a wrong password: the client shows 'The password is incorrect'. */
export const LOGIN_FAILED = "E-mail or password incorrect";

/**
 * POST /user/login. A missing account is checked against a dummy hash of the same cost, so the reply takes the
 * same time whether the e-mail exists or not (DESIGN.md §4).
 */
export async function login(db: Db, config: Config, email: string, password: string): Promise<SessionTokens> {
  const user = await findUserByEmail(db, email);
  const hash = user?.passwordHash ?? (await dummyPasswordHash());
  const matches = await verifyPassword(password, hash);
  if (!user || !user.passwordHash || !matches) throw new NotSignedIn(LOGIN_FAILED);
  return startSession(db, config, user.id);
}

/**
 * POST /google/login: signs in the Google account with this verified e-mail, creating it on first use. An
 * account that was registered with a password is not taken over by a Google sign-in of the same address.
 */
export async function googleLogin(
  db: Db,
  config: Config,
  verify: GoogleVerifier,
  idToken: string,
): Promise<SessionTokens> {
  const identity = await verify(idToken);
  const existing = await findUserByEmail(db, identity.email);
  if (existing && !existing.googleUser) {
    throw new Conflict("This e-mail signs in with a password");
  }
  let userId = existing?.id;
  if (userId === undefined) {
    const [created] = await db
      .insert(users)
      .values({
        firstName: identity.givenName,
        lastName: identity.familyName,
        email: identity.email,
        passwordHash: null,
        googleUser: true,
        profilePicture: identity.picture,
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    // Two first sign-ins at once: the other one created the account.
    userId = created?.id ?? (await findUserByEmail(db, identity.email))?.id;
    if (userId === undefined) throw new Conflict("This e-mail signs in with a password");
  }
  return startSession(db, config, userId);
}
