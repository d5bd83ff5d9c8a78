import { Suspense } from "react";
import { useSession } from "@/api/session";
import { lazyWithTexts } from "@/i18n";

const NewsletterOptIn = lazyWithTexts(() => import("./NewsletterOptIn"), "account");

/** The home page's newsletter block (docs/product-rules.md §1): for logged-in users only, so guests never load its code. */
export function NewsletterBlock() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <NewsletterOptIn user={user} />
    </Suspense>
  );
}
