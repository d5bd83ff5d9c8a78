import { sql } from "drizzle-orm";
import { ORDER_FLAGS } from "@voltio/domain/admin-orders";
import { ORDER_STATUSES } from "@voltio/domain/orders";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  doublePrecision,
  foreignKey,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import type { ProductOption, VariantOptions } from "@voltio/domain/variants";
import { ATTRIBUTE_TYPES, BETTER_WHEN } from "@voltio/domain/specs";

/**
 * The whole data model of docs/product-rules.md §13. Money is integer cents; every table has created/updated stamps;
 * the rules that matter are constraints here, not only checks in application code.
 */

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

export const roleEnum = pgEnum("role", ["user", "admin"]);
export const saleDayEnum = pgEnum("sale_day", ["mon", "tue", "wed", "thu", "fri", "sat", "sun", "all"]);
export const orderStatusEnum = pgEnum("order_status", ORDER_STATUSES);
export const mailStatusEnum = pgEnum("mail_status", ["queued", "sending", "sent", "failed"]);
/** Why a paid order waits for the admin: its stock was gone, or the amount paid wasn't its total. */
export const orderFlagEnum = pgEnum("order_flag", ORDER_FLAGS);
/**
 * open: can be paid (one per shopper); paid: its orders finished; replaced: closed for a newer one; expired:
 * its hold ran out unpaid; refund_needed / amount_mismatch: paid but undeliverable, its payment refunded.
 */
export const checkoutStatusEnum = pgEnum("checkout_status", [
  "open",
  "paid",
  "replaced",
  "refund_needed",
  "amount_mismatch",
  "expired",
]);
export const attributeTypeEnum = pgEnum("attribute_type", ATTRIBUTE_TYPES);
export const betterWhenEnum = pgEnum("better_when", BETTER_WHEN);
export const refundStatusEnum = pgEnum("refund_status", ["pending", "succeeded", "failed"]);

/** The shipping address as it was when the order was paid: later edits of the address book don't move it. */
export interface ShippingAddress {
  city: string;
  street: string;
  streetNumber: number;
  floor: string | null;
  unit: string | null;
  postalCode: string;
}

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    rol: roleEnum("rol").notNull().default("user"),
    profilePicture: text("profile_picture").notNull().default(""),
    googleUser: boolean("google_user").notNull().default(false),
    /** Google's id of the account that signs in as this user (its `sub`), once one did. */
    googleSubject: text("google_subject"),
    /** The authenticator app's shared secret, sealed with a key derived from JWT_SECRET (second-factor). */
    totpSecret: text("totp_secret"),
    /** When the authenticator app was confirmed with a first code: from then on every login asks for one. */
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true }),
    /** The last 30-second step whose code was accepted: a code works once. */
    totpLastStep: integer("totp_last_step"),
    newsletterSubscription: boolean("newsletter_subscription").notNull().default(false),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
    uniqueIndex("users_google_subject_key").on(t.googleSubject),
    check("users_password_or_google", sql`${t.passwordHash} is not null or ${t.googleUser}`),
    // The dashboard's 'Latest users': the newest shoppers, without sorting every account.
    index("users_latest_shoppers_idx")
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`${t.rol} = 'user' and ${t.deletedAt} is null`),
  ],
);

export const directions = pgTable(
  "directions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    city: text("city").notNull(),
    street: text("street").notNull(),
    streetNumber: integer("street_number").notNull(),
    floor: text("floor"),
    unit: text("unit"),
    postalCode: text("postal_code").notNull(),
    ...timestamps,
  },
  (t) => [
    index("directions_user_id_idx").on(t.userId),
    check("directions_street_number", sql`${t.streetNumber} >= 0`),
  ],
);

export const categories = pgTable(
  "categories",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    image: text("image").notNull().default(""),
    ...timestamps,
  },
  // Admins name categories freely ('Drones', 'drones'): one category per name, whatever its case.
  (t) => [uniqueIndex("categories_name_lower_key").on(sql`lower(${t.name})`)],
);

/** Who makes a product (Logitech, Apple): shoppers filter by it and search finds it. */
export const brands = pgTable(
  "brands",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** Its name in URLs and filters (`brand=logitech`). */
    slug: text("slug").notNull(),
    logo: text("logo").notNull().default(""),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("brands_name_lower_key").on(sql`lower(${t.name})`),
    unique("brands_slug_key").on(t.slug),
  ],
);

/**
 * A typed specification a category's products are described by (Laptops: RAM in GB, a number; Mice: the
 * connection, one of wired/wireless/bluetooth). Its key names it in filters (`spec.ram_gb.min=16`): the same key
 * in two categories is one filter.
 */
export const attributes = pgTable(
  "attributes",
  {
    id: serial("id").primaryKey(),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    label: text("label").notNull(),
    type: attributeTypeEnum("type").notNull(),
    unit: text("unit").notNull().default(""),
    /** The values an enum attribute may take, in the order shoppers see them. */
    enumValues: text("enum_values")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Shown as a filter beside listings (numbers as a range, enums as checkboxes). */
    filterable: boolean("filterable").notNull().default(true),
    /** Whether more or less is better: the compare page marks the best value of the row. */
    betterWhen: betterWhenEnum("better_when"),
    position: integer("position").notNull().default(0),
    ...timestamps,
  },
  (t) => [unique("attributes_category_key").on(t.categoryId, t.key)],
);

export const products = pgTable(
  "products",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    name: text("name").notNull(),
    brandId: integer("brand_id").references(() => brands.id),
    /**
     * Up to 3 options and their values ([{name: "Colour", values: ["Black", "White"]}]); none for a product
     * sold one way, which has one default variant.
     */
    options: jsonb("options").$type<ProductOption[]>().notNull().default([]),
    priceCents: integer("price_cents").notNull(),
    shippingCostCents: integer("shipping_cost_cents").notNull().default(0),
    stock: integer("stock").notNull().default(0),
    description: text("description").notNull().default(""),
    /** Reviews kept summed beside the product: a page shows the average without counting rows. */
    ratingSum: integer("rating_sum").notNull().default(0),
    ratingCount: integer("rating_count").notNull().default(0),
    /** Products are retired, not deleted: orders and reviews keep pointing at them. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index("products_brand_idx").on(t.brandId),
    check("products_price_cents", sql`${t.priceCents} >= 0`),
    check("products_shipping_cost_cents", sql`${t.shippingCostCents} >= 0`),
    check("products_stock", sql`${t.stock} >= 0`),
    // Shopper listings only see live, in-stock products: sorted by price or by id.
    index("products_listing_price_idx")
      .on(t.priceCents, t.id)
      .where(sql`${t.deletedAt} is null and ${t.stock} > 0`),
    index("products_listing_id_idx")
      .on(t.id)
      .where(sql`${t.deletedAt} is null and ${t.stock} > 0`),
  ],
);

/**
 * What is sold and counted: one combination of a product's options with its own SKU, price and stock. A
 * product sold one way has one (options {}). Migration 0026's triggers keep the product's `stock` (the sum)
 * and `price_cents` (the lowest, "from $X") those of its live variants, so listings read the product alone,
 * and make a write of a one-variant product's price or stock that of its variant.
 */
export const productVariants = pgTable(
  "product_variants",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    sku: text("sku").notNull(),
    /** Its value of each of the product's options ({Colour: "Black", Memory: "16 GB"}). */
    options: jsonb("options").$type<VariantOptions>().notNull().default({}),
    priceCents: integer("price_cents").notNull(),
    stock: integer("stock").notNull().default(0),
    position: integer("position").notNull().default(0),
    /** Whether the product's and its categories' sales discount it (a clearance colour may be left out). */
    saleEligible: boolean("sale_eligible").notNull().default(true),
    /** Retired variants are not sold, but order lines keep pointing at them. */
    retiredAt: timestamp("retired_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    unique("product_variants_sku_key").on(t.sku),
    // What order lines, holds and alerts reference with their product, so a line can't name another's variant.
    unique("product_variants_id_product_key").on(t.id, t.productId),
    uniqueIndex("product_variants_live_options_key")
      .on(t.productId, t.options)
      .where(sql`${t.retiredAt} is null`),
    index("product_variants_product_idx").on(t.productId, t.position),
    check("product_variants_price_cents", sql`${t.priceCents} >= 0`),
    check("product_variants_stock", sql`${t.stock} >= 0`),
  ],
);

/** A product's value of one of its category's attributes: a number or a text (enum values are texts). */
export const productSpecs = pgTable(
  "product_specs",
  {
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    attributeId: integer("attribute_id")
      .notNull()
      .references(() => attributes.id, { onDelete: "cascade" }),
    numberValue: doublePrecision("number_value"),
    textValue: text("text_value"),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.attributeId] }),
    // Filters and facets: the products with a value, a range of values.
    index("product_specs_number_idx").on(t.attributeId, t.numberValue, t.productId),
    index("product_specs_text_idx").on(t.attributeId, t.textValue, t.productId),
    check("product_specs_one_value", sql`(${t.numberValue} is null) <> (${t.textValue} is null)`),
  ],
);

export const productImages = pgTable(
  "product_images",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** A picture of one variant (the white mouse); none: the product's, shown for every variant. */
    variantId: integer("variant_id").references(() => productVariants.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    altText: text("alt_text").notNull().default(""),
    position: integer("position").notNull().default(0),
    ...timestamps,
  },
  (t) => [
    unique("product_images_product_position_key").on(t.productId, t.position),
    index("product_images_variant_idx").on(t.variantId),
  ],
);

export const productCategories = pgTable(
  "product_categories",
  {
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.categoryId] }),
    index("product_categories_category_idx").on(t.categoryId, t.productId),
  ],
);

export const sales = pgTable(
  "sales",
  {
    id: serial("id").primaryKey(),
    description: text("description").notNull(),
    percentage: integer("percentage").notNull(),
    day: saleDayEnum("day").notNull().default("all"),
    productAmount: integer("product_amount").notNull().default(0),
    image: text("image").notNull().default(""),
    ...timestamps,
  },
  (t) => [
    check("sales_percentage", sql`${t.percentage} between 1 and 100`),
    check("sales_product_amount", sql`${t.productAmount} >= 0`),
  ],
);

export const saleProducts = pgTable(
  "sale_products",
  {
    saleId: integer("sale_id")
      .notNull()
      .references(() => sales.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.saleId, t.productId] }),
    index("sale_products_product_idx").on(t.productId),
  ],
);

export const saleCategories = pgTable(
  "sale_categories",
  {
    saleId: integer("sale_id")
      .notNull()
      .references(() => sales.id, { onDelete: "cascade" }),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.saleId, t.categoryId] }),
    index("sale_categories_category_idx").on(t.categoryId),
  ],
);

export const bulkOrders = pgTable(
  "bulk_orders",
  {
    // Its default draws from orders_id_seq (migration 0024): no id names both a single and a bulk order.
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    status: orderStatusEnum("status").notNull().default("pending"),
    combinedPriceCents: integer("combined_price_cents").notNull(),
    combinedShippingCostCents: integer("combined_shipping_cost_cents").notNull(),
    /** The provider's id of the payment that paid it (providerPaymentId), under SPEC's name. */
    purchaseId: text("purchase_id"),
    serverPurchaseDate: timestamp("server_purchase_date", { withTimezone: true }),
    localPurchaseDate: text("local_purchase_date"),
    flag: orderFlagEnum("flag"),
    shippingAddress: jsonb("shipping_address").$type<ShippingAddress>(),
    /** The checkout that paid it: its id is the purchase's one number (V-000123). */
    checkoutId: integer("checkout_id").references((): AnyPgColumn => checkouts.id),
    /** Set when the admin ships it (onDelivery): the shipping e-mail and the order page show it. */
    trackingNumber: text("tracking_number"),
    carrier: text("carrier"),
    ...timestamps,
  },
  (t) => [
    index("bulk_orders_user_status_idx").on(t.userId, t.status),
    check("bulk_orders_combined_price", sql`${t.combinedPriceCents} >= 0`),
    check("bulk_orders_combined_shipping", sql`${t.combinedShippingCostCents} >= 0`),
  ],
);

export const orders = pgTable(
  "orders",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    /**
     * The variant sold. Left out, migration 0026's trigger fills in the product's default variant (SPEC's
     * calls name products only): the null default only makes it optional to drizzle.
     */
    variantId: integer("variant_id")
      .notNull()
      .default(sql`null`),
    status: orderStatusEnum("status").notNull(),
    amount: integer("amount").notNull().default(1),
    /** Snapshot taken when the line becomes pending: later price changes don't touch a purchase. */
    unitPriceCents: integer("unit_price_cents"),
    lineTotalCents: integer("line_total_cents"),
    shippingCostCents: integer("shipping_cost_cents"),
    salePercentage: integer("sale_percentage"),
    /** Units sold at the 'on Nth unit' discount: the checkout charges them as a line of their own. */
    discountedUnits: integer("discounted_units"),
    /** The provider's id of the payment that paid it (providerPaymentId), under SPEC's name. */
    purchaseId: text("purchase_id"),
    bulkOrderId: integer("bulk_order_id").references(() => bulkOrders.id),
    serverPurchaseDate: timestamp("server_purchase_date", { withTimezone: true }),
    localPurchaseDate: text("local_purchase_date"),
    flag: orderFlagEnum("flag"),
    shippingAddress: jsonb("shipping_address").$type<ShippingAddress>(),
    /** The checkout that paid it: its id is the purchase's one number (V-000123). */
    checkoutId: integer("checkout_id").references((): AnyPgColumn => checkouts.id),
    /** Set when the admin ships it (onDelivery): the shipping e-mail and the order page show it. */
    trackingNumber: text("tracking_number"),
    carrier: text("carrier"),
    ...timestamps,
  },
  (t) => [
    index("orders_checkout_idx").on(t.checkoutId),
    check("orders_amount", sql`${t.amount} >= 1`),
    foreignKey({
      name: "orders_variant_fk",
      columns: [t.variantId, t.productId],
      foreignColumns: [productVariants.id, productVariants.productId],
    }),
    // One wishlist line and one cart line per user and variant; purchases may repeat.
    uniqueIndex("orders_user_variant_list_key")
      .on(t.userId, t.variantId, t.status)
      .where(sql`${t.status} in ('inWishList', 'inCart')`),
    index("orders_user_status_idx").on(t.userId, t.status),
    index("orders_status_date_idx").on(t.status, t.serverPurchaseDate),
    index("orders_product_idx").on(t.productId),
    index("orders_variant_idx").on(t.variantId),
    index("orders_bulk_order_idx").on(t.bulkOrderId),
  ],
);

/**
 * One attempt to pay everything the shopper has pending (ADR 0008): the orders it covers and their total,
 * fixed when the shopper pressed pay, and the provider's checkout (preference, session, sandbox charge).
 */
export const checkouts = pgTable(
  "checkouts",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    provider: text("provider").notNull(),
    /** The provider's id for it (preference, Checkout Session, sandbox charge); set once it answered. */
    providerCheckoutId: text("provider_checkout_id"),
    initPoint: text("init_point"),
    status: checkoutStatusEnum("status").notNull().default("open"),
    orderIds: integer("order_ids").array().notNull(),
    bulkOrderIds: integer("bulk_order_ids").array().notNull(),
    amountCents: integer("amount_cents").notNull(),
    /** Where the shopper returns: the store's own origin, checked when the checkout is made. */
    baseUrl: text("base_url").notNull(),
    shippingAddress: jsonb("shipping_address").$type<ShippingAddress>().notNull(),
    /** The provider's id of the payment that paid it (SPEC's replies call it purchaseId). */
    providerPaymentId: text("provider_payment_id"),
    /** When its stock holds end: an open checkout past it is no longer paid for goods it holds. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull().defaultNow(),
    /** The re-check worker's last look at it with the provider. */
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    /**
     * While the provider is asked for its session: the lease of the request asking, renewed while it lives.
     * Past it with no session, that request died (a crash between the save and the provider's answer).
     */
    startingUntil: timestamp("starting_until", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index("checkouts_user_status_idx").on(t.userId, t.status),
    // One open checkout per shopper, whatever the concurrency (a double-clicked Pay, two tabs).
    uniqueIndex("checkouts_one_open_per_user")
      .on(t.userId)
      .where(sql`${t.status} = 'open'`),
    index("checkouts_open_idx")
      .on(t.checkedAt)
      .where(sql`${t.status} = 'open'`),
    unique("checkouts_provider_checkout_key").on(t.provider, t.providerCheckoutId),
    check("checkouts_amount", sql`${t.amountCents} > 0`),
  ],
);

export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    provider: text("provider").notNull(),
    providerPaymentId: text("provider_payment_id").notNull(),
    status: text("status").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    /** What has been given back, through the store or as the provider reported it. */
    refundedCents: integer("refunded_cents").notNull().default(0),
    /** The buyer's bank disputed it (a chargeback): the owner must answer it at the provider. */
    disputed: boolean("disputed").notNull().default(false),
    /** The checkout it paid, and through it the orders (checkouts.order_ids, bulk_order_ids). */
    checkoutId: integer("checkout_id")
      .notNull()
      .references(() => checkouts.id),
    rawPayload: jsonb("raw_payload"),
    ...timestamps,
  },
  (t) => [
    unique("payments_provider_payment_key").on(t.provider, t.providerPaymentId),
    index("payments_checkout_idx").on(t.checkoutId),
    check("payments_amount", sql`${t.amountCents} >= 0`),
    check("payments_refunded", sql`${t.refundedCents} >= 0`),
  ],
);

/**
 * Units a checkout keeps from other shoppers while its buyer pays. A hold counts only
 * until expires_at: nothing has to run for an expired hold to stop counting. Settlement turns it into a sale.
 */
export const stockHolds = pgTable(
  "stock_holds",
  {
    id: serial("id").primaryKey(),
    checkoutId: integer("checkout_id")
      .notNull()
      .references(() => checkouts.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    /** The variant held; its product's row is kept too, so a product's available stock reads one index. */
    variantId: integer("variant_id")
      .notNull()
      .default(sql`null`),
    units: integer("units").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("stock_holds_product_idx").on(t.productId, t.expiresAt),
    index("stock_holds_variant_idx").on(t.variantId, t.expiresAt),
    foreignKey({
      name: "stock_holds_variant_fk",
      columns: [t.variantId, t.productId],
      foreignColumns: [productVariants.id, productVariants.productId],
    }),
    index("stock_holds_checkout_idx").on(t.checkoutId),
    check("stock_holds_units", sql`${t.units} > 0`),
  ],
);

/**
 * Money given back through the provider: queued in the transaction that decided it, sent after commit and
 * retried by the payments worker until the provider answers (its idempotency key makes a retry harmless).
 */
export const refunds = pgTable(
  "refunds",
  {
    id: serial("id").primaryKey(),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id),
    amountCents: integer("amount_cents").notNull(),
    reason: text("reason").notNull(),
    status: refundStatusEnum("status").notNull().default("pending"),
    providerRefundId: text("provider_refund_id"),
    /** The admin who asked for it; null when the store refunded on its own. */
    requestedBy: integer("requested_by").references(() => users.id),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    ...timestamps,
  },
  (t) => [
    index("refunds_payment_idx").on(t.paymentId),
    index("refunds_pending_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    check("refunds_amount", sql`${t.amountCents} > 0`),
  ],
);

/**
 * The built-in sandbox provider's own books (it stands for a payment company): its charges and what the card
 * page decided. The store reads a payment's outcome from here, never from the return URL.
 */
export const sandboxCharges = pgTable("sandbox_charges", {
  id: text("id").primaryKey(),
  reference: text("reference").notNull(),
  amountCents: integer("amount_cents").notNull(),
  description: text("description").notNull(),
  successUrl: text("success_url").notNull(),
  failureUrl: text("failure_url").notNull(),
  status: text("status").notNull().default("open"),
  paymentId: text("payment_id").unique(),
  declineReason: text("decline_reason"),
  /** After this the card page refuses it, as a provider's checkout expires. */
  expiresAt: timestamp("expires_at", { withTimezone: true }),
  /** What the store has refunded of it (shown on its page). */
  refundedCents: integer("refunded_cents").notNull().default(0),
  ...timestamps,
});

/** The sandbox's refunds: one per idempotency key, as a real provider keeps them. */
export const sandboxRefunds = pgTable("sandbox_refunds", {
  id: text("id").primaryKey(),
  chargeId: text("charge_id")
    .notNull()
    .references(() => sandboxCharges.id),
  amountCents: integer("amount_cents").notNull(),
  idempotencyKey: text("idempotency_key").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Each provider notification is processed once: a repeated one hits this key and changes nothing. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: serial("id").primaryKey(),
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    paymentId: integer("payment_id").references(() => payments.id),
    ...timestamps,
  },
  (t) => [unique("payment_events_provider_event_key").on(t.provider, t.eventId)],
);

export const comments = pgTable(
  "comments",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    content: text("content").notNull().default(""),
    rating: integer("rating").notNull(),
    ...timestamps,
  },
  (t) => [
    unique("comments_user_product_key").on(t.userId, t.productId),
    index("comments_product_idx").on(t.productId),
    check("comments_rating", sql`${t.rating} between 1 and 5`),
  ],
);

/** Guest-list merges already done (POST /order/merge): the same merge sent twice is applied once. */
export const listMerges = pgTable(
  "list_merges",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: uuid("key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 of the random token: a database leak doesn't leak sessions. */
    tokenHash: text("token_hash").notNull().unique(),
    /** The session (login) id, `sid` in its access tokens (ADR 0007); rows from before 0007 share it per login. */
    familyId: uuid("family_id").notNull(),
    /** The idle deadline, slid by each refresh; created_at + SESSION_MAX_HOURS bounds it. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** The browser's User-Agent at sign-in: "Your sessions" shows its browser and system. */
    userAgent: text("user_agent").notNull().default(""),
    /** The last token refresh (sign-in at first): "Your sessions" shows it. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
    /** When this session proved a second factor (code, recovery code or passkey); null: the password alone. */
    secondFactorAt: timestamp("second_factor_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index("refresh_tokens_user_idx").on(t.userId), index("refresh_tokens_family_idx").on(t.familyId)],
);

/** An admin's single-use recovery codes, as SHA-256 (ten at a time; a new set replaces the old one). */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("recovery_codes_user_code_key").on(t.userId, t.codeHash)],
);

/** WebAuthn credentials (passkeys): each signs in alone, and counts as an admin's second factor. */
export const passkeys = pgTable(
  "passkeys",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The authenticator's credential id, base64url. */
    credentialId: text("credential_id").notNull().unique(),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    signCount: integer("sign_count").notNull().default(0),
    transports: jsonb("transports").$type<string[]>().notNull().default([]),
    /** The name the user sees ("Chrome on macOS" by default). */
    name: text("name").notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);

/**
 * Short-lived, single-use steps of a sign-in kept in the database so any process can finish what another
 * began: a password accepted and waiting for the second factor, a WebAuthn challenge. Only the token's
 * SHA-256 is stored.
 */
export const authChallenges = pgTable(
  "auth_challenges",
  {
    id: serial("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    purpose: text("purpose").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The WebAuthn challenge, or other data the step needs. */
    challenge: text("challenge"),
    /** Wrong codes tried against this step: it is closed after a few. */
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("auth_challenges_expires_idx").on(t.expiresAt)],
);

/**
 * An e-mail change waiting for its link to be opened at the new address, and then the old address's
 * "this wasn't me" link that puts it back. Tokens are stored as SHA-256.
 */
export const emailChanges = pgTable(
  "email_changes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    oldEmail: text("old_email").notNull(),
    newEmail: text("new_email").notNull(),
    confirmTokenHash: text("confirm_token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    revertTokenHash: text("revert_token_hash").unique(),
    revertedAt: timestamp("reverted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("email_changes_user_idx").on(t.userId)],
);

/** The store's social links: a single row. */
export const networks = pgTable(
  "networks",
  {
    id: integer("id").primaryKey().default(1),
    facebook: text("facebook").notNull().default(""),
    twitter: text("twitter").notNull().default(""),
    instagram: text("instagram").notNull().default(""),
    ...timestamps,
  },
  (t) => [check("networks_single_row", sql`${t.id} = 1`)],
);

export const newsletterEmails = pgTable("newsletter_emails", {
  id: serial("id").primaryKey(),
  title: text("title").notNull(),
  message: text("message").notNull(),
  receivers: jsonb("receivers").$type<string[]>().notNull(),
  sentBy: integer("sent_by").references(() => users.id, { onDelete: "set null" }),
  ...timestamps,
});

/**
 * Addresses that unsubscribed without an account of theirs (a typed receiver's link): they get no more
 * newsletters. Users are governed by their own newsletterSubscription instead.
 */
export const newsletterUnsubscribes = pgTable("newsletter_unsubscribes", {
  email: text("email").primaryKey(),
  ...timestamps,
});

/**
 * A purchase's history: every status a paid single line or bulk order reaches, written by triggers
 * on orders and bulk_orders (migration 0021) in the transaction of the change, whichever code made it.
 */
export const orderEvents = pgTable(
  "order_events",
  {
    id: serial("id").primaryKey(),
    /** The single line it happened to; null for a bulk order's event. */
    orderId: integer("order_id").references(() => orders.id, { onDelete: "cascade" }),
    bulkOrderId: integer("bulk_order_id").references(() => bulkOrders.id, { onDelete: "cascade" }),
    checkoutId: integer("checkout_id").references(() => checkouts.id),
    status: orderStatusEnum("status").notNull(),
    trackingNumber: text("tracking_number"),
    carrier: text("carrier"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("order_events_order_idx").on(t.orderId),
    index("order_events_bulk_order_idx").on(t.bulkOrderId),
    index("order_events_checkout_idx").on(t.checkoutId),
    check("order_events_one_owner", sql`(${t.orderId} is null) <> (${t.bulkOrderId} is null)`),
  ],
);

/** "Forgot password?" links: single use, 30 minutes, only the token's SHA-256 is kept. */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId)],
);

/**
 * "Tell me when it is back": a signed-in shopper's request on a sold-out product; the first
 * restock queues one e-mail per open request and closes it (notified_at).
 */
export const stockAlerts = pgTable(
  "stock_alerts",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** The variant asked for (the white one is back, not the black); left out, the default (as orders). */
    variantId: integer("variant_id")
      .notNull()
      .default(sql`null`),
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: "stock_alerts_variant_fk",
      columns: [t.variantId, t.productId],
      foreignColumns: [productVariants.id, productVariants.productId],
    }).onDelete("cascade"),
    uniqueIndex("stock_alerts_open_key")
      .on(t.userId, t.variantId)
      .where(sql`${t.notifiedAt} is null`),
    index("stock_alerts_product_open_idx")
      .on(t.productId)
      .where(sql`${t.notifiedAt} is null`),
  ],
);

/**
 * Every e-mail the store sends, queued in the transaction of the change that causes it and delivered by the
 * worker in integrations/mail. `next_attempt_at` is when a queued message is due, and for a message being
 * sent the end of its lease: one left in 'sending' by a process that died is taken again after that.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: serial("id").primaryKey(),
    /** The Message-ID's left part and the .eml file's name: the same on every attempt. */
    messageId: uuid("message_id").notNull().defaultRandom(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    /** Extra headers, e.g. List-Unsubscribe for the newsletter. */
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    status: mailStatusEnum("status").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** What caused the message (e.g. `order-confirmation:bulk:12`): a cause queues its message once. */
    dedupeKey: text("dedupe_key").unique(),
    /**
     * The newsletter this message delivers: its progress is counted from here, and the worker writes the
     * recipient's own unsubscribe link into it when it sends (a send of 10,000 is one INSERT … SELECT).
     */
    newsletterId: integer("newsletter_id").references(() => newsletterEmails.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    index("mail_outbox_newsletter_idx")
      .on(t.newsletterId, t.status)
      .where(sql`${t.newsletterId} is not null`),
    index("mail_outbox_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('queued', 'sending')`),
    check("mail_outbox_attempts", sql`${t.attempts} >= 0`),
  ],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id"),
    details: jsonb("details"),
    ...timestamps,
  },
  (t) => [
    index("audit_log_entity_idx").on(t.entity, t.entityId),
    index("audit_log_created_idx").on(t.createdAt),
    // The audit screen's filters, newest first.
    index("audit_log_entity_created_idx").on(t.entity, t.createdAt.desc()),
    index("audit_log_actor_created_idx").on(t.actorId, t.createdAt.desc()),
  ],
);

/** The store's own settings that the database needs: a single row. */
export const storeSettings = pgTable(
  "store_settings",
  {
    id: integer("id").primaryKey().default(1),
    /** STORE_TIMEZONE, written at start: the order statistics count days in it. */
    timeZone: text("time_zone").notNull().default("UTC"),
    ...timestamps,
  },
  (t) => [check("store_settings_single_row", sql`${t.id} = 1`)],
);

/**
 * The dashboard's figures (GET /api/stats), summed per day of the store's time zone by triggers on orders
 * and bulk_orders in the transaction of each change (migration 0009), so a year reads a few thousand rows
 * instead of a million orders. Only orders with a purchase date (paid at some point) count.
 */
export const orderStatsDaily = pgTable(
  "order_stats_daily",
  {
    day: date("day", { mode: "string" }).notNull(),
    status: orderStatusEnum("status").notNull(),
    /** Purchases: single orders and bulk orders (a bulk order's lines don't count one each). */
    orders: integer("orders").notNull().default(0),
    units: integer("units").notNull().default(0),
    /** The lines' totals (line_total_cents), shipping excluded. */
    salesCents: bigint("sales_cents", { mode: "number" }).notNull().default(0),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.day, t.status] })],
);

const productStats = {
  productId: integer("product_id")
    .notNull()
    .references(() => products.id),
  units: integer("units").notNull().default(0),
  salesCents: bigint("sales_cents", { mode: "number" }).notNull().default(0),
  ...timestamps,
};

/** Units and sales per product and store day, of paid orders only (PAID_STATUSES): the top products. */
export const productStatsDaily = pgTable(
  "product_stats_daily",
  { day: date("day", { mode: "string" }).notNull(), ...productStats },
  (t) => [primaryKey({ columns: [t.day, t.productId] })],
);

/**
 * The same per month (its first day): a year's top products read twelve rows per product and the days of
 * the months the period only cuts into, not 365.
 */
export const productStatsMonthly = pgTable(
  "product_stats_monthly",
  { month: date("month", { mode: "string" }).notNull(), ...productStats },
  (t) => [primaryKey({ columns: [t.month, t.productId] })],
);

/**
 * Rate-limit windows shared by every process: a key's count since `started_at`. Unlogged
 * (migration 0014): counters need no crash safety, and skip the write-ahead log.
 */
export const rateWindows = pgTable(
  "rate_windows",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("rate_windows_started_idx").on(t.startedAt)],
);
