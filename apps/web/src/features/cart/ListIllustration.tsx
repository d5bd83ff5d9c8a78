/**
 * The empty cart's and the empty wishlist's pictures (docs/product-rules.md §1), drawn inline in the theme's colours so
 * they suit both themes and need no network.
 */
export function ListIllustration({ kind, label }: { kind: "cart" | "wishlist"; label: string }) {
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox="0 0 240 180"
      width={240}
      height={180}
      className="h-auto w-52 max-w-full"
    >
      <ellipse cx="120" cy="162" rx="92" ry="10" className="fill-line" />
      {kind === "cart" ? (
        <>
          <path
            d="M30 38h26l22 84h104l18-62H68"
            className="fill-none stroke-ink"
            strokeWidth="7"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
          <path d="M76 62h116l-15 52H88z" className="fill-accent-soft" />
          <path d="M96 78h72M100 96h60" className="stroke-accent" strokeWidth="4" strokeLinecap="round" />
          <circle cx="92" cy="142" r="11" className="fill-card stroke-ink" strokeWidth="6" />
          <circle cx="168" cy="142" r="11" className="fill-card stroke-ink" strokeWidth="6" />
        </>
      ) : (
        <>
          <rect
            x="58"
            y="26"
            width="124"
            height="124"
            rx="16"
            className="fill-card stroke-line"
            strokeWidth="4"
          />
          <path
            d="M120 122c-30-20-44-36-44-54a20 20 0 0 1 44-6a20 20 0 0 1 44 6c0 18-14 34-44 54z"
            className="fill-accent-soft stroke-accent"
            strokeWidth="6"
            strokeLinejoin="round"
          />
          <path
            d="M190 40l10-10M198 58h14M182 26V12"
            className="stroke-sale"
            strokeWidth="5"
            strokeLinecap="round"
          />
        </>
      )}
    </svg>
  );
}
