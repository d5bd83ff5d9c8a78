import type { Networks } from "@voltio/domain/catalog";
import type { NetworksInput } from "@voltio/domain/newsletter";
import type { Db } from "../../db/client";
import { networks } from "../../db/schema";
import type { Caller } from "../identity/caller";
import { recordChange } from "../audit/service";

const columns = { facebook: networks.facebook, twitter: networks.twitter, instagram: networks.instagram };

/** The single networks row, created on first save; recorded in the audit log with the change. */
export async function saveNetworks(db: Db, actor: Caller, input: NetworksInput): Promise<Networks> {
  return db.transaction(async (tx) => {
    const [before = { facebook: "", twitter: "", instagram: "" }] = await tx
      .select(columns)
      .from(networks)
      .for("update");
    const after = { ...before, ...input };
    await tx
      .insert(networks)
      .values({ id: 1, ...after })
      .onConflictDoUpdate({ target: networks.id, set: { ...after, updatedAt: new Date() } });
    await recordChange(tx, actor, "networks.update", 1, { before, after });
    return after;
  });
}
