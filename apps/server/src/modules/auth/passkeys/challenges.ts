import { createHash } from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { authChallenges } from "../../../db/schema";

/**
 * WebAuthn challenges in `auth_challenges`, so any process can finish a ceremony another one began. Each
 * is found by a token only its client holds (stored as its SHA-256), lasts five minutes and is used once:
 * taking it is one conditional UPDATE, so two requests with the same token can't both get it.
 */
export const CHALLENGE_SECONDS = 5 * 60;

export const PURPOSE = { register: "passkey-register", login: "passkey-login" } as const;
type Purpose = (typeof PURPOSE)[keyof typeof PURPOSE];

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function issueChallenge(
  db: Db,
  step: { purpose: Purpose; token: string; userId: number | null; challenge: string },
): Promise<void> {
  await db.insert(authChallenges).values({
    tokenHash: hashToken(step.token),
    purpose: step.purpose,
    userId: step.userId,
    challenge: step.challenge,
    expiresAt: new Date(Date.now() + CHALLENGE_SECONDS * 1000),
  });
  // Ceremonies nobody finished go as new ones begin, so the table stays small without a job.
  await db.delete(authChallenges).where(lt(authChallenges.expiresAt, new Date(Date.now() - 86_400_000)));
}

/** Uses the challenge up and answers it, or undefined when it is unknown, used, expired or someone else's. */
export async function takeChallenge(
  db: Db,
  purpose: Purpose,
  token: string,
  userId?: number,
): Promise<{ challenge: string; userId: number | null } | undefined> {
  const now = new Date();
  const [step] = await db
    .update(authChallenges)
    .set({ usedAt: now })
    .where(
      and(
        eq(authChallenges.tokenHash, hashToken(token)),
        eq(authChallenges.purpose, purpose),
        isNull(authChallenges.usedAt),
        gt(authChallenges.expiresAt, now),
        userId === undefined ? undefined : eq(authChallenges.userId, userId),
      ),
    )
    .returning({ challenge: authChallenges.challenge, userId: authChallenges.userId });
  return step?.challenge ? { challenge: step.challenge, userId: step.userId } : undefined;
}
