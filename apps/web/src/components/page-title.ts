import { useEffect } from "react";

/**
 * The tab title after client-side navigation. Callers pass the same "Page | Voltio" form the server writes
 * into the HTML of a fresh load (apps/server/src/modules/web/seo.ts), in the visitor's language.
 */
export function usePageTitle(title: string | undefined) {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}
