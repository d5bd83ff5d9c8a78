import type { Product } from "@voltio/domain/catalog";
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
  [/^\/user$/, `Profile | ${STORE}`],
  [/^\/purchases$/i, `Your Purchases | ${STORE}`],
  [/^\/wishlist$/i, `Wishlist | ${STORE}`],
  [/^\/cart$/i, `Cart | ${STORE}`],
  [/^\/purchase/, `Checkout | ${STORE}`],
  [/^\/profiles$/, `About us | ${STORE}`],
  [/^\/admin/, `Admin | ${STORE}`],
];

function head(title: string, description: string, canonical: string, extra = ""): PageHead {
  return {
    html: [
      `<title>${escapeXml(title)}</title>`,
      `<meta name="description" content="${escapeXml(description)}">`,
      `<link rel="canonical" href="${escapeXml(canonical)}">`,
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

export function productHead(product: Product, publicUrl: string): PageHead {
  const description = product.description.replace(/\s+/g, " ").trim().slice(0, 155);
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.title,
    description,
    image: product.images.map((image) => (image.url.startsWith("/") ? publicUrl + image.url : image.url)),
    sku: String(product.id),
    offers: {
      "@type": "Offer",
      price: product.price.toFixed(2),
      priceCurrency: "USD",
      availability: product.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      url: `${publicUrl}/product/${product.id}`,
    },
  };
  // "<" is escaped so a product text can never close the script element.
  const script = `<script type="application/ld+json">${JSON.stringify(jsonLd).replace(/</g, "\\u003c")}</script>`;
  return head(`${product.title} | ${STORE}`, description, `${publicUrl}/product/${product.id}`, script);
}
