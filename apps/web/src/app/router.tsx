import { createBrowserRouter } from "react-router";
import { Layout } from "./Layout";

/** Every page is its own lazy chunk: a shopper downloads only what the current screen needs. */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import("@/features/catalog/HomePage")).default }),
      },
      {
        path: "products",
        lazy: async () => ({ Component: (await import("@/features/catalog/ProductListPage")).default }),
      },
      {
        path: "product/:id",
        lazy: async () => ({ Component: (await import("@/features/product/ProductPage")).default }),
      },
      { path: "*", lazy: async () => ({ Component: (await import("./NotFoundPage")).default }) },
    ],
  },
]);
