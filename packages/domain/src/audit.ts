import { z } from "zod";
import { idSchema, pageInfoSchema, pageQuery } from "./http";

/** The audit log of the back office: every admin change, who made it, when, before/after. */
export const AUDIT_ENTITIES = [
  "product",
  "sale",
  "order",
  "bulkOrder",
  "user",
  "newsletter",
  "networks",
  "comment",
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/** GET /audit ?entity &actorId &page &limit (admin), newest first. */
export const auditQuerySchema = z.object({
  entity: z.enum(AUDIT_ENTITIES, { error: `must be one of ${AUDIT_ENTITIES.join(", ")}` }).optional(),
  actorId: idSchema.optional(),
  ...pageQuery(25),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  actor: z
    .object({ id: z.number().int(), firstName: z.string(), lastName: z.string(), email: z.string() })
    .nullable(),
  /** `entity.verb`, e.g. `order.status`, `user.role`, `product.update`. */
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  /** Usually `{before, after}`. */
  details: z.unknown(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = pageInfoSchema.extend({ entries: z.array(auditEntrySchema) });
export type AuditPage = z.infer<typeof auditPageSchema>;
