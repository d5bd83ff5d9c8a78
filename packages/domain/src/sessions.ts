import { z } from "zod";

/**
 * "Your sessions": the caller's open logins (one per sign-in, its id the `sid` of its access tokens), each
 * with the browser and system its User-Agent named at sign-in. Unknown ones are null: the page says so in
 * the shopper's language.
 */
export const sessionSchema = z.object({
  id: z.uuid(),
  browser: z.string().nullable(),
  system: z.string().nullable(),
  createdAt: z.string(),
  /** The sign-in, or the last token refresh since. */
  lastUsedAt: z.string(),
  /** The session of the request that asked. */
  current: z.boolean(),
});
export type Session = z.infer<typeof sessionSchema>;

/** GET /user/sessions: the current session first, then the most recently used. */
export const sessionListSchema = z.array(sessionSchema);

/** DELETE /user/sessions/:id. */
export const sessionIdParamSchema = z.object({ id: z.uuid() });

/** DELETE /user/sessions: every other session ended; how many. */
export const endedSessionsReplySchema = z.object({ msg: z.string(), ended: z.number().int() });
export type EndedSessionsReply = z.infer<typeof endedSessionsReplySchema>;
