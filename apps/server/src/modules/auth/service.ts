import { and, eq, isNull, sql } from "drizzle-orm";
import type { EmailCheckReply } from "@voltio/domain/account";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { users } from "../../db/schema";
import { Conflict, NotSignedIn } from "../../errors";
import { recordChange } from "../audit/service";
import type { GoogleVerifier } from "./google";
import { dummyPasswordHash, verifyPassword } from "./password";
import { upgradeHashIfWeak } from "./password-policy";
import { signInOrAskSecondFactor } from "./second-factor/service";
import type { PendingLogin } from "./second-factor/pending-login";
import type { SessionContext, SessionTokens } from "./sessions";

/** A session, or (an account with a second factor) the login's second step. */
export type LoginOutcome = SessionTokens | { secondFactor: PendingLogin };

/** The live account with this e-mail, whatever its case (deleted accounts don't count). */
export async function findUserByEmail(db: Db, email: string) {
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
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
 * same time whether the e-mail exists or not (docs/product-rules.md §11).
 */
export async function login(
  db: Db,
  config: Config,
  email: string,
  password: string,
  context: SessionContext = {},
): Promise<LoginOutcome> {
  const user = await findUserByEmail(db, email);
  const hash = user?.passwordHash ?? (await dummyPasswordHash());
  const matches = await verifyPassword(password, hash);
  if (!user || !user.passwordHash || !matches) throw new NotSignedIn(LOGIN_FAILED);
  await upgradeHashIfWeak(db, user, password);
  return signInOrAskSecondFactor(db, config, user.id, context);
}

/**
 * POST /google/login: the account is found by Google's subject id, which stays with the
 * Google account whatever its e-mail becomes. Without one, the e-mail decides, and only when Google says it
 * is verified: an account of that e-mail (registered with a password, or by Google before subjects were kept)
 * is linked to this Google account — recorded on the audit log — and a new address makes a new account.
 * An account already linked to another Google account is never taken over.
 */
export async function googleLogin(
  db: Db,
  config: Config,
  verify: GoogleVerifier,
  idToken: string,
  context: SessionContext = {},
  retried = false,
): Promise<LoginOutcome> {
  const identity = await verify(idToken);
  const [bySubject] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.googleSubject, identity.subject), isNull(users.deletedAt)));
  if (bySubject) return signInOrAskSecondFactor(db, config, bySubject.id, context);
  if (!identity.emailVerified) throw new NotSignedIn("Invalid Google token: the e-mail is not verified");

  const userId = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id, googleSubject: users.googleSubject })
      .from(users)
      .where(and(sql`lower(${users.email}) = lower(${identity.email})`, isNull(users.deletedAt)))
      .for("update");
    if (existing) {
      if (existing.googleSubject !== null)
        throw new Conflict("This e-mail signs in with another Google account");
      await tx.update(users).set({ googleSubject: identity.subject }).where(eq(users.id, existing.id));
      await recordChange(tx, { id: existing.id }, "user.google-link", existing.id, {
        before: { googleSubject: null },
        after: { googleSubject: identity.subject, email: identity.email },
      });
      return existing.id;
    }
    const [created] = await tx
      .insert(users)
      .values({
        firstName: identity.givenName,
        lastName: identity.familyName,
        email: identity.email,
        passwordHash: null,
        googleUser: true,
        googleSubject: identity.subject,
        profilePicture: identity.picture,
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    return created?.id;
  });
  // Two first sign-ins at once: the other one created the account, found by its subject the second time.
  if (userId === undefined) {
    if (retried) throw new Conflict("This e-mail can't sign in with Google");
    return googleLogin(db, config, verify, idToken, context, true);
  }
  return signInOrAskSecondFactor(db, config, userId, context);
}
