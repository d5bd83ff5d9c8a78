import { z } from "zod";
import { idSchema, integerInput } from "./http";
import { RATING_MAX, REVIEW_CONTENT_MAX } from "./review-rules";

/**
 * Reviews (docs/product-rules.md §1 Product detail 'Reviews', §8 Review, §10.6 Reviews; §11): one per customer per
 * product, from customers who bought it, with a rating of 1 to 5 stars.
 */
export { RATING_MAX, REVIEW_CONTENT_MAX, REVIEWABLE_STATUSES } from "./review-rules";

export const NOT_A_BUYER = "Only customers who bought this product can review it";
export const ALREADY_REVIEWED = "there's already a comment on this product";

// eslint-disable-next-line no-control-regex -- control characters but tab and line breaks are refused
const TEXT_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The review's text: trimmed, line breaks allowed, at most 2,000 characters; stored and shown as text. */
const contentSchema = z
  .string({ error: "must be text" })
  .trim()
  .max(REVIEW_CONTENT_MAX, `must be at most ${REVIEW_CONTENT_MAX} characters`)
  .refine((text) => !TEXT_CONTROLS.test(text), "must not contain control characters");

const ratingSchema = integerInput(1, RATING_MAX);

export const reviewQuerySchema = z.object({ productId: idSchema });
export const reviewCreateSchema = z.object({
  content: contentSchema.default(""),
  rating: ratingSchema,
  productId: idSchema,
});
export type ReviewCreate = z.infer<typeof reviewCreateSchema>;
export const reviewUpdateSchema = z.object({ id: idSchema, content: contentSchema, rating: ratingSchema });
export type ReviewUpdate = z.infer<typeof reviewUpdateSchema>;
export const reviewDeleteSchema = z.object({ id: idSchema });

/**
 * A review as GET /comment lists it. Other reviewers' e-mails are personal data: only the caller's own review
 * carries it (the client recognises its own review by it, docs/product-rules.md §1), others show a last initial.
 */
export const reviewSchema = z.object({
  id: z.number().int(),
  content: z.string(),
  rating: z.number().int(),
  productId: z.number().int(),
  createdAt: z.string(),
  userInfo: z.object({
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().optional(),
  }),
});
export type Review = z.infer<typeof reviewSchema>;
export const reviewListSchema = z.array(reviewSchema);

/** The average rating and the number of reviews of a product, kept beside it in the database. */
export const ratingSummarySchema = z.object({
  average: z.number().describe("Mean of the ratings, 1 decimal; 0 without reviews"),
  count: z.number().int(),
});
export type RatingSummary = z.infer<typeof ratingSummarySchema>;

/** "Ada Lovelace" → "Ada L.": how other shoppers see a reviewer. */
export const lastInitial = (lastName: string) => (lastName ? `${lastName.trim().charAt(0)}.` : "");

/** The average of `count` ratings that add up to `sum`, rounded to 1 decimal. */
export const ratingAverage = (sum: number, count: number) =>
  count === 0 ? 0 : Math.round((sum / count) * 10) / 10;
