import { useState } from "react";
import { useTranslation } from "@/i18n";
import { ChevronLeft, ChevronRight } from "lucide-react";
import type { Product } from "@voltio/domain/catalog";
import { focusRingClass } from "@/components/ui/focus-ring";

const arrowClass = `absolute top-1/2 grid h-11 w-11 -translate-y-1/2 place-items-center rounded-full border border-line bg-card/90 text-ink shadow-md backdrop-blur transition hover:border-accent hover:text-accent-strong ${focusRingClass}`;

/** The product's pictures with thumbnails (docs/product-rules.md §1); previous and next wrap around at both ends. */
export function ImageSlider({ images }: { images: Product["images"] }) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const count = images.length;
  const current = count > 0 ? index % count : 0;
  const image = images[current];
  const go = (delta: number) => setIndex((current + delta + count) % count);

  return (
    // min-w-0: the thumbnail strip scrolls inside the grid column instead of widening the page.
    <section
      aria-roledescription={t("carousel.roleDescription")}
      aria-label={t("product.pictures")}
      className="min-w-0"
    >
      <div className="relative overflow-hidden rounded-3xl border border-line bg-accent-soft">
        {image ? (
          <img
            src={image.url}
            alt={image.altText}
            width={800}
            height={600}
            fetchPriority="high"
            className="aspect-[4/3] h-auto w-full object-contain"
          />
        ) : (
          <div className="aspect-[4/3]" />
        )}
        {count > 1 && (
          <>
            <button
              type="button"
              onClick={() => go(-1)}
              aria-label={t("product.previousPicture")}
              className={`${arrowClass} left-3`}
            >
              <ChevronLeft size={22} aria-hidden />
            </button>
            <button
              type="button"
              onClick={() => go(1)}
              aria-label={t("product.nextPicture")}
              className={`${arrowClass} right-3`}
            >
              <ChevronRight size={22} aria-hidden />
            </button>
            <p className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full bg-slate-950/70 px-3 py-1 text-xs font-medium text-white tabular-nums">
              {t("product.pictureOf", { index: current + 1, total: count })}
            </p>
          </>
        )}
      </div>
      {count > 1 && (
        <ul className="mt-3 flex gap-2 overflow-x-auto p-1">
          {images.map((thumbnail, position) => (
            <li key={thumbnail.url} className="shrink-0">
              <button
                type="button"
                onClick={() => setIndex(position)}
                aria-label={t("product.showPicture", { index: position + 1 })}
                aria-current={position === current}
                className={`block h-16 w-20 overflow-hidden rounded-xl border-2 bg-accent-soft transition ${focusRingClass} sm:h-20 sm:w-24 ${
                  position === current ? "border-accent" : "border-transparent opacity-70 hover:opacity-100"
                }`}
              >
                <img
                  src={thumbnail.url}
                  alt=""
                  width={96}
                  height={72}
                  loading="lazy"
                  className="h-full w-full object-contain"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
