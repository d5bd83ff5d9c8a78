/** English texts: SPEC.md's wording is the English text. Spanish mirrors every key (es.ts). */
export const en = {
  store: { name: "Voltio", tagline: "Technology for work and play" },
  nav: {
    home: "Home",
    products: "Products",
    search: "Search products",
    searchPlaceholder: "Search…",
    themeToDark: "Switch to dark mode",
    themeToLight: "Switch to light mode",
    language: "Language",
    mainMenu: "Main navigation",
  },
  catalog: {
    allProducts: "All products",
    noResults: "No results found",
    page: "Page {{page}} of {{total}}",
    previous: "Previous",
    next: "Next",
    freeShipping: "Free shipping",
    shipping: "Shipping: u$s {{cost}}",
    off: "{{percentage}}% OFF",
    onUnit: " on {{unit}}º unit",
    noStock: "No stock available",
    stock: "Stock: {{count}}",
    results: "{{count}} products",
    featured: "Featured products",
    loading: "Loading…",
  },
  product: { notFound: "Product Not Found!", backToProducts: "Back to products", description: "Description" },
  notFound: {
    title: "Page not found",
    text: "The page you are looking for doesn't exist.",
    home: "Go to the home page",
  },
  footer: { rights: "© 2022 Voltio. All rights reserved." },
} as const;

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type Messages = Widen<typeof en>;
