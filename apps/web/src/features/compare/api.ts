import { useQuery } from "@tanstack/react-query";
import type { BrandRef, Product } from "@voltio/domain/catalog";
import type { BetterWhen } from "@voltio/domain/specs";
import { bootReply } from "@/api/boot-data";
import { ApiError, apiFetch } from "@/api/client";

/** GET /api/compare?ids= (issue 41 contract): the products' specifications side by side. */
export interface CompareReply {
  category: { id: number; name: string } | null;
  attributes: {
    key: string;
    label: string;
    unit: string | null;
    type: string;
    betterWhen: BetterWhen | null;
  }[];
  products: {
    id: number;
    title: string;
    price: number;
    images: Product["images"];
    brand: BrandRef | null;
    rating: Product["rating"];
    specs: Record<string, number | string | null>;
  }[];
  /** Per attribute key: the ids of the products with its best value (none where no value is better). */
  best: Record<string, number[]>;
  /** The keys of the rows whose values differ. */
  differs: string[];
}

export const compareApiPath = (ids: number[]) => `/compare?ids=${ids.join(",")}`;

export function useComparison(ids: number[]) {
  const path = compareApiPath(ids);
  return useQuery({
    queryKey: ["compare", ids.join(",")],
    queryFn: ({ signal }) => apiFetch<CompareReply>(path, { signal }),
    // A server-rendered compare page embeds the reply (apps/server/src/modules/web/routes.ts).
    ...bootReply<CompareReply>(path),
    enabled: ids.length > 0,
    retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 3,
  });
}
