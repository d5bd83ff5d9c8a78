import type { Product } from "@voltio/domain/catalog";
import { variantName } from "@voltio/domain/variants";
import { escapeXml } from "../../http/escape";

export interface PageHead {
  html: string;
}

const STORE = "Voltio";
const DEFAULT_DESCRIPTION = "Voltio: laptops, monitors, peripherals, storage and more, with sales every day.";

const TITLES: [RegExp, string][] = [
  [/^\/$/, `${STORE} | Technology store`],
  [/^\/products$/, `Products | ${STORE}`],
  [/^\/login$/, `Log in / Sign up | ${STORE}`],
  [/^\/password\/forgot$/, `Forgot your password? | ${STORE}`],
  [/^\/password\/reset$/, `Choose a new password | ${STORE}`],
  [/^\/user$/, `Profile | ${STORE}`],
  [/^\/user\/email\/confirm$/, `Confirm your new e-mail | ${STORE}`],
  [/^\/user\/email\/revert$/, `Put your e-mail back | ${STORE}`],
  [/^\/purchases$/i, `Your Purchases | ${STORE}`],
  [/^\/purchases\/[^/]+$/i, `Order | ${STORE}`],
  [/^\/wishlist$/i, `Wishlist | ${STORE}`],
  [/^\/cart$/i, `Cart | ${STORE}`],
  [/^\/purchase/, `Checkout | ${STORE}`],
  [/^\/profiles$/, `About us | ${STORE}`],
  [/^\/compare$/, `Compare products | ${STORE}`],
  [/^\/admin/, `Admin | ${STORE}`],
];

function head(title: string, description: string, canonical: string, extra = ""): PageHead {
  return {
    html: [
      `<title>${escapeXml(title)}</title>`,
      `<meta name="description" content="${escapeXml(description)}">`,
      `<link rel="canonical" href="${escapeXml(canonical)}">`,
      `<meta property="og:url" content="${escapeXml(canonical)}">`,
      `<meta property="og:title" content="${escapeXml(title)}">`,
      `<meta property="og:description" content="${escapeXml(description)}">`,
      extra,
    ].join(""),
  };
}

export function pageHead(path: string, publicUrl: string): PageHead {
  const title = TITLES.find(([route]) => route.test(path))?.[1] ?? `Page not found | ${STORE}`;
  return head(title, DEFAULT_DESCRIPTION, publicUrl + path);
}

/**
 * /products: a category page is its own canonical URL (the sitemap lists it); filters, sorting and search
 * are variants of the listing, and search results are kept out of the index.
 */
export function listingHead(
  query: { categoryId?: number; categoryName?: string; offset?: number; search?: string },
  publicUrl: string,
): PageHead {
  const page = query.offset && query.offset > 1 ? query.offset : 1;
  if (query.categoryName && query.categoryId) {
    return head(
      `${query.categoryName} | ${STORE}`,
      `${query.categoryName} at ${STORE}: prices in US dollars, sales every day.`,
      `${publicUrl}/products?categoryId=${query.categoryId}&offset=${page}`,
    );
  }
  if (query.search) {
    return head(
      `Results for “${query.search}” | ${STORE}`,
      DEFAULT_DESCRIPTION,
      `${publicUrl}/products?offset=1`,
      `<meta name="robots" content="noindex, follow">`,
    );
  }
  return head(`Products | ${STORE}`, DEFAULT_DESCRIPTION, `${publicUrl}/products?offset=${page}`);
}

/** /products?search= longer than the API takes: the page says so, and no search engine keeps it. */
export function searchTooLongHead(publicUrl: string): PageHead {
  return head(
    `That search is too long | ${STORE}`,
    DEFAULT_DESCRIPTION,
    `${publicUrl}/products?offset=1`,
    `<meta name="robots" content="noindex, follow">`,
  );
}

/** /products?categoryId= of no category: the listing says so (404), and no search engine keeps it. */
export function categoryNotFoundHead(path: string, publicUrl: string): PageHead {
  return head(
    `Category not found | ${STORE}`,
    DEFAULT_DESCRIPTION,
    publicUrl + path,
    `<meta name="robots" content="noindex">`,
  );
}

export function productNotFoundHead(path: string, publicUrl: string): PageHead {
  return head(
    `Product Not Found! | ${STORE}`,
    DEFAULT_DESCRIPTION,
    publicUrl + path,
    `<meta name="robots" content="noindex">`,
  );
}

/**
 * A product page's title, description, canonical URL and Product JSON-LD. `priceCents` is what a shopper
 * pays for one unit today (the sale the storefront shows included), so the structured data matches the page.
 */
export function productHead(
  product: Product,
  publicUrl: string,
  priceCents = Math.round(product.price * 100),
  /** Today's price of each variant by id (a sale may discount some only); absent: its listed price. */
  variantCents: ReadonlyMap<number, number> = new Map(),
): PageHead {
  const description = product.description.replace(/\s+/g, " ").trim().slice(0, 155);
  const absolute = (url: string) => (url.startsWith("/") ? publicUrl + url : url);
  const productUrl = `${publicUrl}/product/${product.id}`;
  const availability = (stock: number) =>
    stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock";
  // Search engines take a rating only with at least one review behind it.
  const rating =
    product.rating.count > 0
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: product.rating.average.toFixed(1),
            reviewCount: product.rating.count,
            bestRating: "5",
            worstRating: "1",
          },
        }
      : {};
  const brand = product.brand ? { brand: { "@type": "Brand", name: product.brand.name } } : {};
  // Sold in several ways (issue 41): a ProductGroup whose variants are Products of their own, each with its
  // SKU, option values, price and stock, at the URL that shows it (?variant=).
  const jsonLd =
    product.options.length > 0
      ? {
          "@context": "https://schema.org",
          "@type": "ProductGroup",
          name: product.title,
          description,
          url: productUrl,
          productGroupID: String(product.id),
          image: product.images.map((image) => absolute(image.url)),
          ...brand,
          variesBy: product.options.map((option) => option.name),
          hasVariant: product.variants.map((variant) => ({
            "@type": "Product",
            name: variantName(product.title, product.options, variant.options),
            sku: variant.sku,
            image: (variant.images.length > 0 ? variant.images : product.images).map((image) =>
              absolute(image.url),
            ),
            additionalProperty: Object.entries(variant.options).map(([name, value]) => ({
              "@type": "PropertyValue",
              name,
              value,
            })),
            offers: {
              "@type": "Offer",
              price: ((variantCents.get(variant.id) ?? Math.round(variant.price * 100)) / 100).toFixed(2),
              priceCurrency: "USD",
              availability: availability(variant.stock),
              url: `${productUrl}?variant=${variant.id}`,
            },
          })),
          ...rating,
        }
      : {
          "@context": "https://schema.org",
          "@type": "Product",
          name: product.title,
          description,
          image: product.images.map((image) => absolute(image.url)),
          sku: String(product.id),
          ...brand,
          offers: {
            "@type": "Offer",
            price: (priceCents / 100).toFixed(2),
            priceCurrency: "USD",
            availability: availability(product.stock),
            url: productUrl,
          },
          ...rating,
        };
  // "<" is escaped so a product text can never close the script element.
  const script = `<script type="application/ld+json">${JSON.stringify(jsonLd).replace(/</g, "\\u003c")}</script>`;
  // Every variant's URL names the same page: the product's is canonical.
  return head(`${product.title} | ${STORE}`, description, productUrl, script);
}
