import type { FastifyRequest } from "fastify";
import type { Db } from "../../db/client";
import { HttpError } from "../../http/errors";
import { readCaller, type Caller } from "./access-token";

/** The signed-in caller, or 401. An expired token still answers the SPEC's 403 TokenExpiredError. */
export async function requireUser(request: FastifyRequest, db: Db, secret: string): Promise<Caller> {
  const caller = await readCaller(request, db, secret);
  if (!caller) throw new HttpError(401, "You must be logged in");
  return caller;
}

/** DESIGN.md §4: every admin call checks the role on the server, read from the database on each request. */
export async function requireAdmin(request: FastifyRequest, db: Db, secret: string): Promise<Caller> {
  const caller = await requireUser(request, db, secret);
  if (caller.rol !== "admin") throw new HttpError(403, "Only admins can do this");
  return caller;
}
