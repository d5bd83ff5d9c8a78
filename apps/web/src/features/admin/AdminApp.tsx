import { Suspense, lazy } from "react";
import { Route, Routes } from "react-router";
import { SecondFactorGate } from "@/components/SecondFactorGate";
import { AdminMenu } from "./AdminMenu";
import { AdminPlaceholder } from "./AdminPlaceholder";

// Each screen is its own chunk inside the admin area: the charts load only on the dashboard.
const DashboardPage = lazy(() => import("./dashboard/DashboardPage"));
const ProductsPage = lazy(() => import("./products/ProductsPage"));
const ProductFormPage = lazy(() => import("./products/ProductFormPage"));
const SalesPage = lazy(() => import("./sales/SalesPage"));
const NewsletterPage = lazy(() => import("./newsletter/NewsletterPage"));
const AuditPage = lazy(() => import("./audit/AuditPage"));
const OrdersPage = lazy(() => import("./orders/OrdersPage"));
const UsersPage = lazy(() => import("./users/UsersPage"));
const PaymentsPage = lazy(() => import("./payments/PaymentsPage"));
const CustomerPage = lazy(() => import("./customers/CustomerPage"));
const CataloguePage = lazy(() => import("./catalogue/CataloguePage"));
const ProductDetailsPage = lazy(() => import("./catalogue/ProductDetailsPage"));

/**
 * The back office (docs/product-rules.md §1 Admin routes): the side menu and the admin screens, one lazy chunk
 * that no storefront page loads (bench:web checks). The admin guard in front of it (app/guards.tsx) sends
 * shoppers to / and guests to /login; the server checks the role again on every call.
 */
export function AdminApp() {
  return (
    <SecondFactorGate>
      <div className="grid items-start gap-6 md:grid-cols-[15rem_1fr]">
        <AdminMenu />
        <div className="min-w-0">
          <Suspense fallback={null}>
            <Routes>
              <Route index element={<DashboardPage />} />
              <Route path="products" element={<ProductsPage />} />
              <Route path="create/Product" element={<ProductFormPage />} />
              <Route path="edit/:id" element={<ProductFormPage />} />
              <Route path="details/:id" element={<ProductDetailsPage />} />
              <Route path="catalogue" element={<CataloguePage />} />
              <Route path="discounts" element={<SalesPage />} />
              <Route path="newsletter" element={<NewsletterPage />} />
              <Route path="audit" element={<AuditPage />} />
              <Route path="orders" element={<OrdersPage />} />
              <Route path="order/:id" element={<AdminPlaceholder />} />
              <Route path="users" element={<UsersPage />} />
              <Route path="customers/:id" element={<CustomerPage />} />
              <Route path="payments" element={<PaymentsPage />} />
              <Route path="*" element={<AdminPlaceholder />} />
            </Routes>
          </Suspense>
        </div>
      </div>
    </SecondFactorGate>
  );
}

export default AdminApp;
