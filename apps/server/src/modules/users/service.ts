import { and, asc, count, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import {
  ADDRESSES_PER_USER_MAX,
  type AddressValues,
  type AdminUserPage,
  type AdminUserQuery,
  type Role,
  type User,
  type UserSummary,
  type userUpdateSchema,
} from "@voltio/domain/account";
import type { z } from "zod";
import { likeLiteral } from "../../db/like";
import type { Db } from "../../db/client";
import { LIST_STATUSES } from "@voltio/domain/orders";
import { pageInfo } from "@voltio/domain/http";
import { directions, orders, users } from "../../db/schema";
import { recordChange } from "../audit/service";
import { Conflict, InvalidInput, NotAllowed, NotFound } from "../../errors";
import type { Caller } from "../identity/caller";
import { deletedAddress } from "./erasure";
import { hashPassword, verifyPassword } from "../auth/password";
import { requireStrongPassword } from "../auth/password-policy";
import { findUserByEmail } from "../auth/service";
import { revokeUserSessions } from "../auth/sessions";
import { queueSecurityNotice } from "../auth/notices";
import { avatarUrl } from "../illustrations/svg";

/** The first account: the store's owner, who can never be demoted or deleted (docs/product-rules.md §8, §12). */
export const FIRST_ADMIN_ID = 1;

const publicColumns = {
  id: true,
  firstName: true,
  lastName: true,
  email: true,
  rol: true,
  profilePicture: true,
  googleUser: true,
  newsletterSubscription: true,
} as const;

const addressColumns = {
  id: true,
  city: true,
  street: true,
  streetNumber: true,
  floor: true,
  unit: true,
  postalCode: true,
} as const;

/**
 * An account's picture as replies give it: without one of its own, the store's avatar of its initials, so a
 * client never draws a broken image from an empty address (the stored value stays empty).
 */
export const withPicture = <Row extends { profilePicture: string; firstName: string; lastName: string }>(
  row: Row,
): Row => (row.profilePicture ? row : { ...row, profilePicture: avatarUrl(row) });

/** GET /user: the account with its addresses; the password hash is never selected. */
export async function getUser(db: Db, id: number): Promise<User> {
  const user = await db.query.users.findFirst({
    where: (u, { and, eq, isNull }) => and(eq(u.id, id), isNull(u.deletedAt)),
    columns: publicColumns,
    with: { directions: { columns: addressColumns, orderBy: (d, { asc }) => [asc(d.id)] } },
  });
  if (!user) throw new NotFound("User Not Found");
  return withPicture(user);
}

const isUniqueViolation = (error: unknown): boolean => {
  for (let e = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
};

const emailTaken = () => new Conflict("email exists");

/** POST /user. The e-mail is unique whatever its case; the database's index decides a race. */
export async function registerUser(
  db: Db,
  input: { firstName: string; lastName: string; email: string; password: string },
): Promise<{ id: number }> {
  if (await findUserByEmail(db, input.email)) throw emailTaken();
  await requireStrongPassword("password", input.password, input);
  const passwordHash = await hashPassword(input.password);
  try {
    const [created] = await db
      .insert(users)
      .values({
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        passwordHash,
      })
      .returning({ id: users.id });
    return created!;
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

type UserUpdate = z.output<typeof userUpdateSchema>;

/** PUT /user: one field of the caller's own account, or one of the caller's addresses. */
export async function updateUser(db: Db, caller: Caller, update: UserUpdate): Promise<User> {
  const [account] = await db
    .select({
      googleUser: users.googleUser,
      passwordHash: users.passwordHash,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(users)
    .where(eq(users.id, caller.id));
  if (!account) throw new NotFound("User Not Found");

  if (update.direction) {
    const { id, ...fields } = update.direction;
    const changes = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    const mine = and(eq(directions.id, id), eq(directions.userId, caller.id));
    // An edit without fields still answers 404 for an address that isn't the caller's.
    const changed =
      Object.keys(changes).length > 0
        ? await db.update(directions).set(changes).where(mine).returning({ id: directions.id })
        : await db.select({ id: directions.id }).from(directions).where(mine);
    // Someone else's address answers exactly like a missing one.
    if (changed.length === 0) throw new NotFound("Address Not Found");
    return getUser(db, caller.id);
  }

  if (update.prevPassword !== undefined && update.newPassword !== undefined) {
    if (account.googleUser || !account.passwordHash) {
      throw new InvalidInput("prevPassword", "Google accounts have no password here");
    }
    if (!(await verifyPassword(update.prevPassword, account.passwordHash))) {
      throw new InvalidInput("prevPassword", "The password is incorrect");
    }
    await requireStrongPassword("newPassword", update.newPassword, account);
    const passwordHash = await hashPassword(update.newPassword);
    await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(users)
        .set({ passwordHash })
        .where(eq(users.id, caller.id))
        .returning({ email: users.email });
      // Other logins end: a password is changed when someone else might know the old one (ASVS 3.3.3).
      await revokeUserSessions(tx, caller.id, caller.sessionId);
      // The owner hears of it, in case it wasn't them (ASVS 2.2.3).
      if (changed) await queueSecurityNotice(tx, changed.email, { kind: "password-changed" });
    });
    return getUser(db, caller.id);
  }

  // The e-mail is not among them: it changes only once the new address confirms it (email-change.ts).
  const fields = {
    firstName: update.firstName,
    lastName: update.lastName,
    profilePicture: update.profilePicture,
    newsletterSubscription: update.newsletterSubscription,
  };
  try {
    await db.update(users).set(fields).where(eq(users.id, caller.id));
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  return getUser(db, caller.id);
}

/**
 * POST /user/direction. The cap is counted and kept in one transaction that first locks the account's row,
 * so concurrent creations for one account take turns: a count can't be overtaken by another insert.
 */
export async function addAddress(db: Db, userId: number, address: AddressValues): Promise<User> {
  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    const [{ total } = { total: 0 }] = await tx
      .select({ total: count() })
      .from(directions)
      .where(eq(directions.userId, userId));
    if (total >= ADDRESSES_PER_USER_MAX) {
      throw new Conflict(`An account can keep up to ${ADDRESSES_PER_USER_MAX} addresses`);
    }
    await tx.insert(directions).values({ ...address, userId });
  });
  return getUser(db, userId);
}

/** DELETE /user/direction/:id: only the caller's own address; any other id is not found. */
export async function deleteAddress(db: Db, userId: number, id: number): Promise<User> {
  const deleted = await db
    .delete(directions)
    .where(and(eq(directions.id, id), eq(directions.userId, userId)))
    .returning({ id: directions.id });
  if (deleted.length === 0) throw new NotFound("Address Not Found");
  return getUser(db, userId);
}

/** An account as the back office lists it (GET /user/admin, the customer page). */
export const summaryColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  rol: users.rol,
  profilePicture: users.profilePicture,
  googleUser: users.googleUser,
  newsletterSubscription: users.newsletterSubscription,
  createdAt: users.createdAt,
};

const toSummary = (row: { createdAt: Date } & Omit<UserSummary, "createdAt">): UserSummary => ({
  ...withPicture(row),
  createdAt: row.createdAt.toISOString(),
});

/** GET /user/all (admin). */
export async function listUsers(db: Db): Promise<UserSummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(users)
    .where(isNull(users.deletedAt))
    .orderBy(asc(users.id));
  return rows.map(toSummary);
}

/** GET /user/admin (admin): the users screen, one page at a time, searched by name or e-mail, by role. */
export async function pageUsers(
  db: Db,
  { search, rol, page, limit }: AdminUserQuery,
): Promise<AdminUserPage> {
  const pattern = search ? `%${likeLiteral(search.toLowerCase())}%` : undefined;
  const where = and(
    isNull(users.deletedAt),
    rol ? eq(users.rol, rol) : undefined,
    pattern
      ? sql`(lower(${users.email}) like ${pattern} or lower(${users.firstName} || ' ' || ${users.lastName}) like ${pattern})`
      : undefined,
  );
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select(summaryColumns)
      .from(users)
      .where(where)
      .orderBy(asc(users.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { users: rows.map(toSummary), ...pageInfo(page, limit, total) };
}

/**
 * PUT /user/admin (admin): sets or toggles a role. User 1 stays an admin. Recorded in the audit log. The
 * user stays signed in and is told on their next request.
 */
export async function changeRole(
  db: Db,
  actor: Caller,
  id: number,
  rol: Role | undefined,
): Promise<UserSummary> {
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ rol: users.rol, email: users.email })
      .from(users)
      .where(and(eq(users.id, id), isNull(users.deletedAt)))
      .for("update");
    if (!target) throw new NotFound("User Not Found");
    const next: Role = rol ?? (target.rol === "admin" ? "user" : "admin");
    if (id === FIRST_ADMIN_ID && next !== "admin") throw new NotAllowed("The user 1 can't be demoted");
    if (target.rol === "admin" && next !== "admin") {
      // Every admin row is locked, so two admins demoting each other at once take turns.
      const admins = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.rol, "admin"), isNull(users.deletedAt)))
        .for("update");
      if (admins.length <= 1) throw new NotAllowed("The last admin can't be demoted");
    }
    const [row] = await tx
      .update(users)
      .set({ rol: next })
      // Belt and braces: the statement itself can't demote user 1.
      .where(and(eq(users.id, id), sql`not (${users.id} = ${FIRST_ADMIN_ID} and ${next} <> 'admin')`))
      .returning(summaryColumns);
    if (!row) throw new NotAllowed("The user 1 can't be demoted");
    if (target.rol !== next) {
      // The user's logins go on: the role is read from the database on every request, so
      // the change applies at once, and their next request is told so (auth/access-token.ts).
      await recordChange(tx, actor, "user.role", id, { before: { rol: target.rol }, after: { rol: next } });
      await queueSecurityNotice(tx, target.email, {
        kind: next === "admin" ? "admin-granted" : "admin-removed",
      });
    }
    return toSummary(row);
  });
}

/**
 * DELETE /user/admin (admin). The account keeps its id, so its orders stay for the books (with the shipping
 * address they were sent to), but everything that says who the person was is erased: names, e-mail (so
 * they may register again), password, picture, addresses, cart and wishlist, logins. Reviews stay, signed
 * 'Deleted U.'. The audit log records the deletion without personal data.
 */
export async function deleteUser(db: Db, actor: Caller, id: number): Promise<void> {
  if (id === FIRST_ADMIN_ID) throw new NotAllowed("The user 1 can't be deleted");
  if (id === actor.id) throw new NotAllowed("Admins can't delete themselves");
  await db.transaction(async (tx) => {
    const [target] = await tx
      .select({ rol: users.rol, createdAt: users.createdAt })
      .from(users)
      .where(and(eq(users.id, id), isNull(users.deletedAt)))
      .for("update");
    if (!target) throw new NotFound("User Not Found");
    await tx
      .update(users)
      .set({
        deletedAt: new Date(),
        firstName: "Deleted",
        lastName: "User",
        email: deletedAddress(id),
        // No password matches it, and no Google account either: nobody can sign in as this account.
        passwordHash: "deleted",
        googleUser: false,
        googleSubject: null,
        profilePicture: "",
        newsletterSubscription: false,
      })
      .where(and(eq(users.id, id), ne(users.id, FIRST_ADMIN_ID)));
    await tx.delete(directions).where(eq(directions.userId, id));
    await tx.delete(orders).where(and(eq(orders.userId, id), inArray(orders.status, [...LIST_STATUSES])));
    await revokeUserSessions(tx, id);
    await recordChange(tx, actor, "user.delete", id, {
      before: { rol: target.rol, createdAt: target.createdAt.toISOString() },
      after: null,
    });
  });
}
