import { and, count, desc, eq } from "drizzle-orm";
import type { AuditPage, AuditQuery } from "@voltio/domain/audit";
import { pageInfo } from "@voltio/domain/http";
import type { Db } from "../../db/client";
import { auditLog, users } from "../../db/schema";

/** GET /audit (issue 13 point 5): the admins' changes, newest first, by entity and by admin. */
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
