/**
 * What a checkout charges (docs/product-rules.md §1 Checkout, §10.6 Payment; ADRs 0008, 0013, 0015): each pending line as the
 * server snapshotted it, an 'on Nth unit' discount split into a line of its own with no shipping, and the
 * sums every screen shows. The server builds the provider's items with it and the page draws the same lines,
 * so the shopper pays exactly what they saw.
 */

/** A pending line as snapshotted when it became pending (cents). */
export interface PendingLine {
  title: string;
  amount: number;
  /** One unit: the full price for an 'on Nth unit' sale, the discounted one for a sale on every unit. */
  unitPriceCents: number;
  lineTotalCents: number;
  shippingCents: number;
  salePercentage: number | null;
  /** Units at the 'on Nth unit' discount (0 without one). */
  discountedUnits: number;
}

export interface CheckoutItem {
  title: string;
  amount: number;
  unitPriceCents: number;
  shippingCents: number;
  /** The sale's percentage on an 'on Nth unit' line; null on a line at the snapshot's unit price. */
  discountPercentage: number | null;
}

/**
 * `totalCents` over `units` in at most two groups of whole cents that add up exactly: a provider charges
 * quantity × unit price, and a line rounded once may not divide evenly.
 */
function evenly(totalCents: number, units: number): { amount: number; unitPriceCents: number }[] {
  const unitPriceCents = Math.floor(totalCents / units);
  const remainder = totalCents - unitPriceCents * units;
  return [
    { amount: units - remainder, unitPriceCents },
    { amount: remainder, unitPriceCents: unitPriceCents + 1 },
  ].filter((group) => group.amount > 0);
}

/**
 * The items of one pending line. With an 'on Nth unit' sale the snapshot keeps the full unit price; the
 * discounted units become their own line, with shipping 0.
 */
export function checkoutItems(line: PendingLine): CheckoutItem[] {
  const fullUnits = line.amount - line.discountedUnits;
  if (line.discountedUnits > 0 && fullUnits > 0) {
    return [
      {
        title: line.title,
        amount: fullUnits,
        unitPriceCents: line.unitPriceCents,
        shippingCents: line.shippingCents,
        discountPercentage: null,
      },
      ...evenly(line.lineTotalCents - fullUnits * line.unitPriceCents, line.discountedUnits).map((group) => ({
        title: line.title,
        ...group,
        shippingCents: 0,
        discountPercentage: line.salePercentage,
      })),
    ];
  }
  return evenly(line.lineTotalCents, line.amount).map((group, index) => ({
    title: line.title,
    ...group,
    shippingCents: index === 0 ? line.shippingCents : 0,
    discountPercentage: null,
  }));
}

export interface CheckoutTotals {
  productsCents: number;
  shippingCents: number;
  totalCents: number;
}

/** Anything priced as a line: a cart line, a pending line, a purchase's snapshot (cents). */
export interface TotalsLine {
  lineTotalCents: number;
  shippingCents: number;
}

/**
 * The one money rule of every screen (ADR 0015): the products are the sum of the line totals, the shipping the
 * SUM of each line's shipping cost (each product ships on its own), the total both. The cart, the header's
 * preview, /purchase, the provider's items, the e-mails and the order page all add up through here, so the
 * same lines show the same three figures everywhere. The only place that sums: don't add them up elsewhere.
 */
export function checkoutTotals(lines: readonly TotalsLine[]): CheckoutTotals {
  let productsCents = 0;
  let shippingCents = 0;
  for (const line of lines) {
    productsCents += line.lineTotalCents;
    shippingCents += line.shippingCents;
  }
  return { productsCents, shippingCents, totalCents: productsCents + shippingCents };
}

/** docs/product-rules.md §10.6: the pseudo item that carries the shipping, last in the provider's items. */
export const SHIPPING_ITEM_TITLE = "shippingCost";

/**
 * POST /{provider}/pay's items for these lines: each line's items, then the `shippingCost` item with the
 * shipping of `checkoutTotals`. Quantity × unit price of them adds up to its total, to the cent.
 */
export function providerItems(
  lines: readonly PendingLine[],
): { title: string; amount: number; unitPriceCents: number }[] {
  return [
    ...lines
      .flatMap(checkoutItems)
      .map(({ title, amount, unitPriceCents }) => ({ title, amount, unitPriceCents })),
    { title: SHIPPING_ITEM_TITLE, amount: 1, unitPriceCents: checkoutTotals(lines).shippingCents },
  ];
}
