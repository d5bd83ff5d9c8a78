import type { Db } from "../../db/client";
import { auditLog } from "../../db/schema";
import type { Caller } from "../auth/access-token";

/**
 * Values as the database stores them. A lone UTF-16 surrogate (JSON "\ud800") becomes U+FFFD on its way to a
 * text column, but jsonb refuses it outright: the log gets the text the record got.
 */
const asStored = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (_key, inner: unknown) =>
      typeof inner === "string" ? Buffer.from(inner, "utf8").toString("utf8") : inner,
    ),
  );

/**
 * One admin change on the audit log (DESIGN.md §3; issue 12): who did what (`product.update`: the entity
 * and the verb) to which record, with the record before and after (null when created or deleted). Written
 * with the change's own transaction, so the log holds exactly the changes that happened.
 */
export async function recordChange(
  tx: Db,
  actor: Caller,
  action: `${string}.${string}`,
  entityId: number,
  details: { before: unknown; after: unknown },
): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: actor.id,
    action,
    entity: action.slice(0, action.indexOf(".")),
    entityId: String(entityId),
    details: asStored(details),
  });
}
