import { createHash } from "node:crypto";
import { generateAuthenticationOptions } from "@simplewebauthn/server";
import { eq } from "drizzle-orm";
import type { AuthenticationResponse, PasskeyLoginOptionsReply } from "@voltio/domain/passkeys";
import type { Config } from "../../../config";
import type { Db } from "../../../db/client";
import { authChallenges, passkeys } from "../../../db/schema";
import { InvalidInput, NotSignedIn } from "../../../errors";
import {
  PENDING_LOGIN_GONE,
  finishPendingLogin,
  pendingLoginUser,
  setPendingLoginData,
} from "../second-factor/pending-login";
import type { SessionTokens } from "../sessions";
import { verifyAssertion, type RelyingParty } from "./service";

/**
 * A passkey as the login's second step (second-factor/pending-login.ts): the challenge is kept in the
 * pending login and names only that user's passkeys. Each answer uses it up, right or wrong, and a wrong
 * one counts as a wrong code, so the step's own limit closes it.
 */

const gone = () => new NotSignedIn(PENDING_LOGIN_GONE, { secondFactorGone: true });
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** POST /user/login/second-factor/passkey/options. */
export async function secondFactorOptions(
  db: Db,
  rp: RelyingParty,
  token: string,
): Promise<PasskeyLoginOptionsReply> {
  const userId = await pendingLoginUser(db, token);
  if (userId === undefined) throw gone();
  const keys = await db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
  if (keys.length === 0) throw new InvalidInput("token", "this account has no passkey");
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: keys,
    // The password was the first factor: the key being held is the second.
    userVerification: "preferred",
  });
  if (!(await setPendingLoginData(db, token, { passkeyChallenge: options.challenge }))) throw gone();
  return { token, options: { ...options } };
}

/** POST /user/login/second-factor/passkey: a session with the second factor proved. */
export async function finishWithPasskey(
  db: Db,
  config: Config,
  rp: RelyingParty,
  input: { token: string; response: AuthenticationResponse },
  log: (why: string) => void,
): Promise<SessionTokens> {
  return finishPendingLogin(db, config, input.token, async ({ tx, userId, data }) => {
    const challenge = data.passkeyChallenge;
    if (typeof challenge !== "string") {
      log("no passkey challenge issued for this step");
      return false;
    }
    // Used up whatever the answer: the step's row keeps its other data.
    await tx
      .update(authChallenges)
      .set({ challenge: JSON.stringify({ ...data, passkeyChallenge: null }) })
      .where(eq(authChallenges.tokenHash, hashToken(input.token)));
    const outcome = await verifyAssertion(tx, rp, input.response, challenge, {
      userId,
      requireUserVerification: false,
    });
    if ("refused" in outcome) log(outcome.refused);
    return "userId" in outcome;
  });
}
