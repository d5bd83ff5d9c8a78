import { lazy, Suspense } from "react";
import { useSession } from "@/api/session";

const NewsletterOptIn = lazy(() => import("./NewsletterOptIn"));

/** The home page's newsletter block (SPEC.md §2): for logged-in users only, so guests never load its code. */
export function NewsletterBlock() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <NewsletterOptIn user={user} />
    </Suspense>
  );
}
