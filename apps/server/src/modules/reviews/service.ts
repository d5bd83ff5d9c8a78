import { and, desc, eq, inArray, sql } from "drizzle-orm";
import {
  ALREADY_REVIEWED,
  NOT_A_BUYER,
  REVIEWABLE_STATUSES,
  lastInitial,
  type Review,
  type ReviewCreate,
  type ReviewUpdate,
} from "@voltio/domain/reviews";
import type { Db } from "../../db/client";
import { comments, orders, products, users } from "../../db/schema";
import { recordChange } from "../audit/service";
import { Conflict, NotAllowed, NotFound } from "../../errors";
import type { Caller } from "../identity/caller";

/**
 * Reviews (docs/product-rules.md §1, §8 Review, §10.6; §11): verified buyers only, one per customer and
 * product, edited and deleted by their author (admins may delete any, on the audit log). Each product keeps
 * the sum and count of its ratings, changed in the same transaction as the review, so listings show the
 * average without counting reviews per page view.
 */

const reviewColumns = {
  id: comments.id,
  userId: comments.userId,
  content: comments.content,
  rating: comments.rating,
  productId: comments.productId,
  createdAt: comments.createdAt,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
};
type ReviewRow = {
  id: number;
  userId: number;
  content: string;
  rating: number;
  productId: number;
  createdAt: Date;
  firstName: string;
  lastName: string;
  email: string;
};

/** Only the caller's own review carries its e-mail; others show a first name and a last initial. */
function toReview(row: ReviewRow, callerId: number | undefined): Review {
  const own = row.userId === callerId;
  return {
    id: row.id,
    content: row.content,
    rating: row.rating,
    productId: row.productId,
    createdAt: row.createdAt.toISOString(),
    userInfo: own
      ? { firstName: row.firstName, lastName: row.lastName, email: row.email }
      : { firstName: row.firstName, lastName: lastInitial(row.lastName) },
  };
}

async function requireProduct(db: Db, productId: number) {
  const [product] = await db.select({ id: products.id }).from(products).where(eq(products.id, productId));
  if (!product) throw new NotFound("Product Not Found!");
}

/** GET /comment?productId: the product's reviews, newest first. */
export async function listReviews(db: Db, productId: number, callerId: number | undefined) {
  await requireProduct(db, productId);
  const rows = await db
    .select(reviewColumns)
    .from(comments)
    .innerJoin(users, eq(users.id, comments.userId))
    .where(eq(comments.productId, productId))
    .orderBy(desc(comments.createdAt), desc(comments.id));
  return rows.map((row) => toReview(row, callerId));
}

/** Moves a product's rating totals by one review's difference. */
async function adjustRating(tx: Db, productId: number, ratingDelta: number, countDelta: number) {
  await tx
    .update(products)
    .set({
      ratingSum: sql`${products.ratingSum} + ${ratingDelta}`,
      ratingCount: sql`${products.ratingCount} + ${countDelta}`,
    })
    .where(eq(products.id, productId));
}

async function reviewOf(tx: Db, id: number): Promise<ReviewRow> {
  const [row] = await tx
    .select(reviewColumns)
    .from(comments)
    .innerJoin(users, eq(users.id, comments.userId))
    .where(eq(comments.id, id));
  if (!row) throw new NotFound("Comment Not Found");
  return row;
}

/** POST /comment: a verified buyer's one review of a product. */
export async function createReview(db: Db, caller: Caller, input: ReviewCreate): Promise<Review> {
  await requireProduct(db, input.productId);
  const [bought] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.userId, caller.id),
        eq(orders.productId, input.productId),
        inArray(orders.status, [...REVIEWABLE_STATUSES]),
      ),
    )
    .limit(1);
  if (!bought) throw new NotAllowed(NOT_A_BUYER);
  const id = await db.transaction(async (tx) => {
    // The unique key decides between two reviews sent at once; the loser changes nothing.
    const [created] = await tx
      .insert(comments)
      .values({
        userId: caller.id,
        productId: input.productId,
        content: input.content,
        rating: input.rating,
      })
      .onConflictDoNothing({ target: [comments.userId, comments.productId] })
      .returning({ id: comments.id });
    if (!created) throw new Conflict(ALREADY_REVIEWED);
    await adjustRating(tx, input.productId, input.rating, 1);
    return created.id;
  });
  return toReview(await reviewOf(db, id), caller.id);
}

/** PUT /comment: the author changes their review's text and rating. */
export async function updateReview(db: Db, caller: Caller, input: ReviewUpdate): Promise<Review> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(comments).where(eq(comments.id, input.id)).for("update");
    if (!current) throw new NotFound("Comment Not Found");
    if (current.userId !== caller.id) throw new NotAllowed("Only its author can edit a review");
    await tx
      .update(comments)
      .set({ content: input.content, rating: input.rating, updatedAt: new Date() })
      .where(eq(comments.id, input.id));
    await adjustRating(tx, current.productId, input.rating - current.rating, 0);
  });
  return toReview(await reviewOf(db, input.id), caller.id);
}

/** DELETE /comment: the author's own review, or any review by an admin (recorded in the audit log). */
export async function deleteReview(db: Db, caller: Caller, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(comments).where(eq(comments.id, id)).for("update");
    if (!current) throw new NotFound("Comment Not Found");
    const byAuthor = current.userId === caller.id;
    if (!byAuthor && caller.rol !== "admin") throw new NotAllowed("Only its author can delete a review");
    await tx.delete(comments).where(eq(comments.id, id));
    await adjustRating(tx, current.productId, -current.rating, -1);
    if (!byAuthor) {
      const { userId, productId, rating, content } = current;
      await recordChange(tx, caller, "comment.delete", id, {
        before: { userId, productId, rating, content },
        after: null,
      });
    }
  });
}
