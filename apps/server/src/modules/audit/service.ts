import { and, count, desc, eq } from "drizzle-orm";
import type { AuditPage, AuditQuery } from "@voltio/domain/audit";
import { pageInfo } from "@voltio/domain/http";
import type { Db } from "../../db/client";
import { auditLog, users } from "../../db/schema";
import type { Caller } from "../identity/caller";

/** GET /audit: the admins' changes, newest first, by entity and by admin. */
export async function pageAudit(db: Db, { entity, actorId, page, limit }: AuditQuery): Promise<AuditPage> {
  const where = and(
    entity ? eq(auditLog.entity, entity) : undefined,
    actorId ? eq(auditLog.actorId, actorId) : undefined,
  );
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select({
        id: auditLog.id,
        action: auditLog.action,
        entity: auditLog.entity,
        entityId: auditLog.entityId,
        details: auditLog.details,
        createdAt: auditLog.createdAt,
        actorId: users.id,
        actorFirstName: users.firstName,
        actorLastName: users.lastName,
        actorEmail: users.email,
      })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ total: count() }).from(auditLog).where(where),
  ]);
  return {
    entries: rows.map((row) => ({
      id: row.id,
      actor:
        row.actorId === null
          ? null
          : {
              id: row.actorId,
              firstName: row.actorFirstName!,
              lastName: row.actorLastName!,
              email: row.actorEmail!,
            },
      action: row.action,
      entity: row.entity,
      entityId: row.entityId,
      details: row.details,
      createdAt: row.createdAt.toISOString(),
    })),
    ...pageInfo(page, limit, total),
  };
}

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
 * One admin change on the audit log (docs/product-rules.md §13): who did what (`product.update`: the entity
 * and the verb) to which record, with the record before and after (null when created or deleted). Written
 * with the change's own transaction, so the log holds exactly the changes that happened. Returns the
 * entry's id, which names the change (e.g. in the dedupe key of the e-mail it causes).
 */
export async function recordChange(
  tx: Db,
  actor: Pick<Caller, "id">,
  action: `${string}.${string}`,
  entityId: number,
  details: { before: unknown; after: unknown },
): Promise<number> {
  const [row] = await tx
    .insert(auditLog)
    .values({
      actorId: actor.id,
      action,
      entity: action.slice(0, action.indexOf(".")),
      entityId: String(entityId),
      details: asStored(details),
    })
    .returning({ id: auditLog.id });
  return row!.id;
}
