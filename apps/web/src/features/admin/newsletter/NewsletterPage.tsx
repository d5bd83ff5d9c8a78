import { useState } from "react";
import { useTranslation } from "@/i18n";
import { usePageTitle } from "@/components/page-title";
import { useNewsletters } from "./api";
import { NetworksForm } from "./NetworksForm";
import { NewsletterForm } from "./NewsletterForm";
import { SentNewsletters } from "./SentNewsletters";

/**
 * /admin/newsletter 'Edit Newsletter' (docs/product-rules.md §1 Admin newsletter, §9, §10.6 POST /emails and POST /networks): the newsletter with its receivers and preview, the newsletters sent with their
 * delivery, and the store's social-network links.
 */
export function NewsletterPage() {
  const { t } = useTranslation();
  usePageTitle(t("titles.page", { page: t("admin.newsletter.title") }));
  const [page, setPage] = useState(1);
  const newsletters = useNewsletters(page);
  return (
    <div className="flex flex-col gap-5">
      <h1 className="text-2xl font-bold tracking-tight text-ink">{t("admin.newsletter.title")}</h1>
      <NewsletterForm subscribers={newsletters.data?.subscribers} />
      <div className="grid items-start gap-5 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <SentNewsletters query={newsletters} page={page} onPage={setPage} />
        <NetworksForm />
      </div>
    </div>
  );
}

export default NewsletterPage;
