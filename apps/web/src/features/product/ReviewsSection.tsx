import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { MessageSquareText } from "lucide-react";
import { useTranslation } from "@/i18n";
import type { Review } from "@voltio/domain/reviews";
import { REVIEWABLE_STATUSES, REVIEW_CONTENT_MAX } from "@voltio/domain/review-rules";
import { ApiError } from "@/api/client";
import { useBulkOrders, useOrders } from "@/api/orders";
import { useCreateReview, useDeleteReview, useReviews, useUpdateReview } from "./api";
import { useSession } from "@/api/session";
import { LazyConfirmDialog } from "@/components/LazyConfirmDialog";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { Stars } from "@/components/ui/Stars";
import { StarPicker } from "@/components/ui/StarPicker";
import { textLinkClass } from "@/components/ui/text-link";

/** docs/product-rules.md §8 Review: the page reloads after a review is created or deleted. */
const reloadPage = () => window.location.reload();

/** Whether the signed-in shopper has this product among their paid orders, alone or in a bulk order. */
function useBoughtIt(productId: number, enabled: boolean) {
  const single = useOrders(REVIEWABLE_STATUSES, { enabled });
  const bulk = useBulkOrders(REVIEWABLE_STATUSES, { enabled });
  const products = [...(single.data ?? []), ...(bulk.data ?? []).flatMap((order) => order.products)];
  return products.some((product) => product.id === productId);
}

/**
 * The product's reviews (docs/product-rules.md §1 Product detail 'Reviews', §8 Review): newest first, the
 * shopper's own review read-only with EDIT, a 5-star form for a customer who bought it, and a note for
 * everyone else saying why they can't review. Texts are shown as text, never as markup.
 */
export function ReviewsSection({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const { user, isAdmin } = useSession();
  const reviews = useReviews(productId);
  const boughtIt = useBoughtIt(productId, Boolean(user) && !isAdmin);
  const own = user ? reviews.data?.find((review) => review.userInfo.email === user.email) : undefined;
  const others = (reviews.data ?? []).filter((review) => review !== own);

  return (
    <section aria-labelledby="reviews-heading" className="flex max-w-3xl flex-col gap-4">
      <h2 id="reviews-heading" className="text-xl font-bold tracking-tight text-ink">
        {t("product.reviews")}
      </h2>
      {own ? (
        <OwnReview review={own} />
      ) : !user ? (
        <p className="text-sm text-muted">
          <Link to="/login" className={`font-semibold text-accent-strong ${textLinkClass}`}>
            {t("reviews.logInToReview")}
          </Link>
        </p>
      ) : boughtIt ? (
        <ReviewForm productId={productId} />
      ) : isAdmin ? null : (
        <p className="text-sm text-muted">{t("reviews.onlyBuyers")}</p>
      )}
      {reviews.isSuccess && reviews.data.length === 0 ? (
        <div className="flex items-center gap-3 rounded-2xl border border-dashed border-line bg-card p-6 text-sm text-muted">
          <MessageSquareText size={22} aria-hidden className="shrink-0" />
          {t("product.noReviews")}
        </div>
      ) : (
        <ul className="flex flex-col gap-3">
          {others.map((review) => (
            <li key={review.id}>
              <ReviewCard review={review} canDelete={isAdmin} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ReviewCard({
  review,
  canDelete = false,
  onEdit,
}: {
  review: Review;
  canDelete?: boolean;
  onEdit?: () => void;
}) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const deleteReview = useDeleteReview();
  const remove = async () => {
    setBusy(true);
    try {
      await deleteReview.mutateAsync(review.id);
      reloadPage();
    } catch {
      setBusy(false);
      setConfirming(false);
    }
  };
  return (
    <Card as="article" className="flex flex-col gap-2 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex items-center gap-2">
          <Stars value={review.rating} />
          <span className="text-sm font-semibold text-ink">
            {review.userInfo.firstName} {review.userInfo.lastName}
          </span>
        </span>
        <time dateTime={review.createdAt} className="text-xs text-muted">
          {new Date(review.createdAt).toLocaleDateString()}
        </time>
      </div>
      {review.content && <p className="text-sm whitespace-pre-line text-ink">{review.content}</p>}
      {(onEdit || canDelete) && (
        <div className="flex gap-2">
          {onEdit && (
            <Button variant="secondary" size="sm" onClick={onEdit}>
              {t("reviews.edit")}
            </Button>
          )}
          <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
            {t("reviews.delete")}
          </Button>
          <LazyConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={t("reviews.confirmDelete")}
            onAccept={() => void remove()}
            busy={busy}
          />
        </div>
      )}
    </Card>
  );
}

/** The shopper's own review: read-only with EDIT, or the form, whose CANCEL restores what was saved. */
function OwnReview({ review }: { review: Review }) {
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(review);
  if (!editing) return <ReviewCard review={saved} canDelete onEdit={() => setEditing(true)} />;
  return (
    <ReviewForm
      productId={saved.productId}
      editing={saved}
      onCancel={() => setEditing(false)}
      onSaved={(updated) => {
        setSaved(updated);
        setEditing(false);
      }}
    />
  );
}

interface ReviewFormProps {
  productId: number;
  /** The review being edited; a new one without it. */
  editing?: Review;
  onCancel?: () => void;
  onSaved?: (review: Review) => void;
}

function ReviewForm({ productId, editing, onCancel, onSaved }: ReviewFormProps) {
  const { t } = useTranslation();
  const textId = useId();
  const [rating, setRating] = useState(editing?.rating ?? 0);
  const [content, setContent] = useState(editing?.content ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const createReview = useCreateReview();
  const updateReview = useUpdateReview();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (rating === 0) {
      setError(t("reviews.pickRating"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      if (editing) {
        onSaved?.(await updateReview.mutateAsync({ id: editing.id, content, rating }));
      } else {
        await createReview.mutateAsync({ content, rating, productId });
        reloadPage();
      }
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : t("reviews.failed"));
    }
    setBusy(false);
  };

  return (
    <Card as="div" className="p-4">
      <form onSubmit={submit} className="flex flex-col gap-3" aria-label={t("reviews.formLabel")}>
        <StarPicker value={rating} onChange={setRating} />
        <label htmlFor={textId} className="text-sm font-medium text-ink">
          {t("reviews.text")}
        </label>
        <textarea
          id={textId}
          value={content}
          onChange={(event) => setContent(event.target.value)}
          maxLength={REVIEW_CONTENT_MAX}
          rows={4}
          className="rounded-xl border border-line bg-surface p-3 text-sm text-ink focus:border-accent focus:outline-2 focus:-outline-offset-1 focus:outline-accent"
        />
        {error && (
          <p role="alert" className="text-sm font-semibold text-sale">
            {error}
          </p>
        )}
        <div className="flex gap-2">
          {onCancel && (
            <Button variant="secondary" onClick={onCancel}>
              {t("reviews.cancel")}
            </Button>
          )}
          <Button type="submit" disabled={busy}>
            {t("reviews.submit")}
          </Button>
        </div>
      </form>
    </Card>
  );
}
