import { z } from "zod";
import { shippingAddressSchema } from "./account";
import { lineSchema } from "./http";
import { ORDER_STATUSES } from "./order-status";

/**
 * After the purchase: a paid checkout seen as one purchase with its number (V-000123),
 * its lines, money, address, payment, shipments with their history and tracking, and what "buy again" did.
 * The server answers these shapes and the web's order page reads them.
 */

/** The number in a path: V-000123 (or the bare id). Anything else is simply not found. */
export const purchaseParamsSchema = z.object({
  number: z
    .string()
    .max(20, "must be at most 20 characters")
    .describe("The purchase's number, e.g. V-000123"),
});

/** A purchase's number in a reply: null until a checkout paid it (order-status.ts numberOf). */
export const PURCHASE_NUMBER = z
  .string()
  .nullable()
  .describe("The purchase's number once paid, e.g. V-000123");

/** Tracking as an admin types it when shipping: trimmed, one printable line. */
export const TRACKING_NUMBER_MAX = 64;
export const CARRIER_MAX = 40;
export const trackingNumberSchema = lineSchema(TRACKING_NUMBER_MAX).transform((value) => value || undefined);
export const carrierSchema = lineSchema(CARRIER_MAX).transform((value) => value || undefined);

/**
 * The carrier's tracking page for a number: the template of that carrier (names compared without case or
 * spaces) with `{number}` replaced. An unknown carrier, or none, has no link.
 */
export function trackingUrl(
  templates: Readonly<Record<string, string>>,
  carrier: string | null | undefined,
  trackingNumber: string | null | undefined,
): string | null {
  if (!carrier || !trackingNumber) return null;
  const key = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, "");
  const found = Object.entries(templates).find(([name]) => key(name) === key(carrier));
  return found ? found[1].replaceAll("{number}", encodeURIComponent(trackingNumber)) : null;
}

/** The well-known carriers' tracking pages (TRACKING_URL_TEMPLATES replaces them). */
export const DEFAULT_TRACKING_URL_TEMPLATES: Readonly<Record<string, string>> = {
  UPS: "https://www.ups.com/track?tracknum={number}",
  FedEx: "https://www.fedex.com/fedextrack/?trknbr={number}",
  DHL: "https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id={number}",
  USPS: "https://tools.usps.com/go/TrackConfirmAction?tLabels={number}",
  "Correo Argentino": "https://www.correoargentino.com.ar/formularios/e-commerce?id={number}",
  Andreani: "https://www.andreani.com/#!/informacionEnvio/{number}",
};

const status = z.enum(ORDER_STATUSES);

export const purchaseLineSchema = z.object({
  orderId: z.number().int(),
  productId: z.number().int(),
  variantId: z.number().int(),
  title: z
    .string()
    .describe("What the line sold: the product's title, and its variant's options if it has any"),
  picture: z.string().nullable(),
  amount: z.number().int(),
  unitPrice: z.number().describe("US dollars for one unit as paid (the full price on an 'on Nth unit' sale)"),
  lineTotal: z.number().describe("US dollars for the line, sale applied"),
  shipping: z.number().describe("US dollars"),
  sale: z
    .object({
      percentage: z.number().int(),
      discountedUnits: z
        .number()
        .int()
        .describe("Units at the 'on Nth unit' discount; 0 when every unit was discounted"),
    })
    .nullable(),
});
export type PurchaseLine = z.infer<typeof purchaseLineSchema>;

export const purchaseEventSchema = z.object({
  status,
  at: z.string().describe("ISO date and time"),
  trackingNumber: z.string().nullable(),
  carrier: z.string().nullable(),
  trackingUrl: z.string().nullable(),
});
export type PurchaseEvent = z.infer<typeof purchaseEventSchema>;

/** A single line or a bulk order of the purchase: each moves (and ships) on its own. */
export const shipmentSchema = z.object({
  kind: z.enum(["order", "bulk"]),
  id: z.number().int(),
  status,
  orderIds: z.array(z.number().int()).describe("The purchase lines it carries"),
  trackingNumber: z.string().nullable(),
  carrier: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  events: z.array(purchaseEventSchema).describe("Oldest first"),
});
export type Shipment = z.infer<typeof shipmentSchema>;

export const purchaseRefundSchema = z.object({
  amount: z.number().describe("US dollars"),
  status: z.enum(["pending", "succeeded", "failed"]),
  at: z.string(),
});

/** GET /order/purchases/:number. */
export const purchaseSchema = z.object({
  number: z.string(),
  purchaseDate: z.string().describe("ISO date and time of the payment"),
  buyer: z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string(), email: z.string() }),
  lines: z.array(purchaseLineSchema),
  products: z.number().describe("US dollars"),
  shipping: z.number().describe("US dollars"),
  total: z.number().describe("US dollars"),
  shippingAddress: shippingAddressSchema.nullable(),
  payment: z
    .object({
      provider: z.string(),
      reference: z.string().describe("The provider's payment id"),
      method: z.string().nullable().describe("The card, e.g. 'visa •••• 4242', when the provider told it"),
      amount: z.number(),
      refunded: z.number(),
    })
    .nullable(),
  shipments: z.array(shipmentSchema),
  refunds: z.array(purchaseRefundSchema),
});
export type Purchase = z.infer<typeof purchaseSchema>;

/** GET /order/purchases: the caller's purchases, newest first (the Purchases page's cards). */
export const purchaseSummarySchema = z.object({
  number: z.string(),
  purchaseDate: z.string(),
  total: z.number().describe("US dollars, shipping included"),
  units: z.number().int(),
  statuses: z.array(status).describe("Each shipment's status, distinct"),
  pictures: z.array(z.object({ url: z.string(), title: z.string() })).describe("The first few products"),
});
export type PurchaseSummary = z.infer<typeof purchaseSummarySchema>;
export const purchaseSummaryListSchema = z.array(purchaseSummarySchema);

/** POST /order/purchases/:number/buy-again: what went into the cart, and what didn't fit. */
export const buyAgainReplySchema = z.object({
  added: z.array(
    z.object({
      productId: z.number().int(),
      title: z.string(),
      asked: z.number().int(),
      added: z.number().int(),
    }),
  ),
  missing: z
    .array(
      z.object({
        productId: z.number().int(),
        title: z.string(),
        asked: z.number().int(),
        added: z.number().int(),
      }),
    )
    .describe("Products gone or short: fewer units than bought went into the cart (maybe none)"),
});
export type BuyAgainReply = z.infer<typeof buyAgainReplySchema>;
