import { and, desc, eq, gt, isNull, ne } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { messageReplySchema } from "@voltio/domain/http";
import {
  endedSessionsReplySchema,
  sessionIdParamSchema,
  sessionListSchema,
  type Session,
} from "@voltio/domain/sessions";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { refreshTokens } from "../../db/schema";
import { NotFound } from "../../errors";
import { signedIn } from "../../http/access";
import { BEARER, SIGNED_IN_ERRORS } from "../../http/private-replies";
import type { Caller } from "../identity/caller";
import { parseUserAgent } from "./user-agent";

/**
 * "Your sessions": a user sees their open logins and ends any of them. Ending one revokes its row, and
 * every request reads that row (access-token.ts readCaller), so its access tokens stop at once on every
 * process, not when they expire.
 */

/** The caller's sessions that still work: not ended, within their idle deadline and maximum age. */
const open = (caller: Caller, config: Pick<Config, "sessionMaxSeconds">) => {
  const now = new Date();
  return and(
    eq(refreshTokens.userId, caller.id),
    isNull(refreshTokens.revokedAt),
    gt(refreshTokens.expiresAt, now),
    gt(refreshTokens.createdAt, new Date(now.getTime() - config.sessionMaxSeconds * 1000)),
  );
};

/** GET /user/sessions: this session first, then the most recently used. */
export async function listSessions(
  db: Db,
  config: Pick<Config, "sessionMaxSeconds">,
  caller: Caller,
): Promise<Session[]> {
  const rows = await db
    .select({
      id: refreshTokens.familyId,
      userAgent: refreshTokens.userAgent,
      createdAt: refreshTokens.createdAt,
      lastUsedAt: refreshTokens.lastUsedAt,
    })
    .from(refreshTokens)
    .where(open(caller, config))
    .orderBy(desc(refreshTokens.lastUsedAt), desc(refreshTokens.id));
  // Logins from before sessions had one token share an id over several rows: one entry each, its latest.
  const seen = new Set<string>();
  const sessions: Session[] = [];
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    sessions.push({
      id: row.id,
      ...parseUserAgent(row.userAgent),
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: row.lastUsedAt.toISOString(),
      current: row.id === caller.sessionId,
    });
  }
  return sessions.sort((a, b) => Number(b.current) - Number(a.current));
}

/** DELETE /user/sessions/:id: only the caller's own; anyone else's answers as a missing one. */
export async function endOwnSession(
  db: Db,
  config: Pick<Config, "sessionMaxSeconds">,
  caller: Caller,
  sessionId: string,
): Promise<void> {
  const ended = await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(open(caller, config), eq(refreshTokens.familyId, sessionId)))
    .returning({ id: refreshTokens.id });
  if (ended.length === 0) throw new NotFound("Session Not Found");
}

/** DELETE /user/sessions: every session of the caller but this one; how many ended. */
export async function endOtherSessions(
  db: Db,
  config: Pick<Config, "sessionMaxSeconds">,
  caller: Caller,
): Promise<number> {
  const ended = await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(open(caller, config), ne(refreshTokens.familyId, caller.sessionId)))
    .returning({ id: refreshTokens.familyId });
  return new Set(ended.map((row) => row.id)).size;
}

export interface SessionRoutesDeps {
  db: Db;
  config: Pick<Config, "sessionMaxSeconds">;
}

export function sessionRoutes({ db, config }: SessionRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      "/user/sessions",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary:
            "The caller's open sessions: browser and system, created and last used; `current` marks this one",
          security: BEARER,
          response: { 200: sessionListSchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => listSessions(db, config, signedIn(request)),
    );

    app.delete(
      "/user/sessions/:id",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary:
            "End one of the caller's sessions (this one too): its tokens stop at once; another's id is not found",
          security: BEARER,
          params: sessionIdParamSchema,
          response: { 200: messageReplySchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        await endOwnSession(db, config, signedIn(request), request.params.id);
        request.log.info({ event: "session.ended" }, "session ended by its user");
        return { msg: "Session ended" };
      },
    );

    app.delete(
      "/user/sessions",
      {
        config: { access: "user" },
        schema: {
          tags: ["users"],
          summary: "End every session of the caller but this one",
          security: BEARER,
          response: { 200: endedSessionsReplySchema, ...SIGNED_IN_ERRORS },
        },
      },
      async (request) => {
        const ended = await endOtherSessions(db, config, signedIn(request));
        request.log.info({ event: "sessions.ended", ended }, "other sessions ended by their user");
        return { msg: "Other sessions ended", ended };
      },
    );
  };
}
