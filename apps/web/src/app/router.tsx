import { createBrowserRouter } from "react-router";
import { RequireAdmin, RequireUser } from "./guards";
import { Layout } from "./Layout";

const adminPlaceholder = async () => ({ Component: (await import("./AdminPlaceholder")).default });

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
      {
        path: "profiles",
        lazy: async () => ({ Component: (await import("@/features/about/AboutPage")).default }),
      },
      {
        path: "login",
        lazy: async () => ({ Component: (await import("@/features/auth/LoginPage")).default }),
      },
      {
        element: <RequireUser />,
        children: [
          {
            path: "user",
            lazy: async () => ({ Component: (await import("@/features/account/ProfilePage")).default }),
          },
          {
            path: "purchases",
            lazy: async () => ({ Component: (await import("@/features/account/PurchasesPage")).default }),
          },
        ],
      },
      {
        path: "admin",
        element: <RequireAdmin />,
        children: [
          { index: true, lazy: adminPlaceholder },
          { path: "*", lazy: adminPlaceholder },
        ],
      },
      { path: "*", lazy: async () => ({ Component: (await import("./NotFoundPage")).default }) },
    ],
  },
]);
