import { useState, type MouseEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useTranslation } from "@/i18n";
import { Mail, Zap } from "lucide-react";
import type { Networks } from "@voltio/domain/catalog";
import { useNetworks } from "@/api/catalog";
import { tokens } from "@/api/tokens";
import { LazyNoticeDialog } from "@/components/LazyNoticeDialog";
import { FacebookIcon, InstagramIcon, TwitterIcon } from "@/components/ui/BrandIcons";
import { textLinkClass } from "@/components/ui/text-link";
import { focusRingClass } from "@/components/ui/focus-ring";

export const SUPPORT_EMAIL = "support@voltio.test";

const NETWORKS = [
  { key: "facebook", name: "Facebook", Icon: FacebookIcon },
  { key: "twitter", name: "Twitter", Icon: TwitterIcon },
  { key: "instagram", name: "Instagram", Icon: InstagramIcon },
] as const;

/** docs/product-rules.md §1: 'Follow us' lists only the networks whose link is not empty. */
export function followLinks(networks: Networks | undefined) {
  return NETWORKS.filter(({ key }) => (networks?.[key] ?? "").trim() !== "").map((network) => ({
    ...network,
    url: networks![network.key].trim(),
  }));
}

const linkClass = `text-sm text-muted transition ${textLinkClass}`;

/** About us, Follow us, 'Need help? Contact us', My account and the 2022 copyright (docs/product-rules.md §1). */
export function Footer() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: networks } = useNetworks();
  const [notice, setNotice] = useState<string | null>(null);
  const follow = followLinks(networks?.[0]);

  // docs/product-rules.md §1: guests opening Profile or Purchases are told to log in first.
  const guarded = (path: string, message: string) => (event: MouseEvent) => {
    event.preventDefault();
    if (tokens.present()) void navigate(path);
    else setNotice(message);
  };

  return (
    <footer className="mt-20 border-t border-line bg-card">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <Link
            to="/"
            className={`inline-flex items-center gap-2 rounded-lg text-lg font-bold text-ink ${focusRingClass}`}
          >
            <span className="grid h-8 w-8 place-items-center rounded-lg bg-accent text-on-accent">
              <Zap size={18} aria-hidden fill="currentColor" />
            </span>
            {t("store.name")}
          </Link>
          <p className="mt-3 max-w-xs text-sm text-muted">{t("store.tagline")}</p>
        </div>
        <nav aria-labelledby="footer-company">
          <h2 id="footer-company" className="text-sm font-semibold text-ink">
            {t("footer.company")}
          </h2>
          <ul className="mt-4 flex flex-col gap-3">
            <li>
              <Link to="/profiles" className={linkClass}>
                {t("footer.aboutUs")}
              </Link>
            </li>
            <li>
              <a href={`mailto:${SUPPORT_EMAIL}`} className={`${linkClass} inline-flex items-center gap-2`}>
                <Mail size={16} aria-hidden />
                {t("footer.contact")}
              </a>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-account">
          <h2 id="footer-account" className="text-sm font-semibold text-ink">
            {t("footer.myAccount")}
          </h2>
          <ul className="mt-4 flex flex-col gap-3">
            <li>
              <a href="/user" onClick={guarded("/user", t("footer.loginToSeeProfile"))} className={linkClass}>
                {t("footer.profile")}
              </a>
            </li>
            <li>
              <Link to="/wishlist" className={linkClass}>
                {t("footer.favorites")}
              </Link>
            </li>
            <li>
              <Link to="/cart" className={linkClass}>
                {t("footer.cart")}
              </Link>
            </li>
            <li>
              <a
                href="/purchases"
                onClick={guarded("/purchases", t("footer.loginToSeePurchases"))}
                className={linkClass}
              >
                {t("footer.purchases")}
              </a>
            </li>
          </ul>
        </nav>
        {follow.length > 0 && (
          <div>
            <h2 className="text-sm font-semibold text-ink">{t("footer.followUs")}</h2>
            <ul className="mt-4 flex gap-2">
              {follow.map(({ key, name, url, Icon }) => (
                <li key={key}>
                  <a
                    href={url}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={t("footer.followOn", { network: name })}
                    className={`grid h-10 w-10 place-items-center rounded-full border border-line text-muted transition hover:border-accent hover:text-accent-strong ${focusRingClass}`}
                  >
                    <Icon />
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
      <div className="border-t border-line">
        <p className="mx-auto max-w-7xl px-4 py-5 text-xs text-muted">{t("footer.rights")}</p>
      </div>
      <LazyNoticeDialog
        open={notice !== null}
        onOpenChange={(open) => !open && setNotice(null)}
        message={notice ?? ""}
        action={{ to: "/login", label: t("modals.login") }}
      />
    </footer>
  );
}
