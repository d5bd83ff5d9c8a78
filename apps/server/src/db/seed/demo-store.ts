import { storedDescription } from "@voltio/domain/description";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { count, sql } from "drizzle-orm";
import { normalizeSaleDay } from "@voltio/domain/weekday";
import { toCents } from "@voltio/domain/money";
import { serverDir } from "../../paths";
import type { Db } from "../client";
import { checkoutTotals } from "@voltio/domain/checkout";
import {
  bulkOrders,
  categories,
  checkouts,
  directions,
  networks,
  orders,
  productCategories,
  productImages,
  payments,
  products,
  sandboxCharges,
  saleCategories,
  saleProducts,
  sales,
  users,
  type ShippingAddress,
} from "../schema";
import { hashPassword } from "../../modules/auth/password";
import { seedCatalogStructure } from "./catalog-structure";
import {
  categoryIllustrationUrl,
  illustrationUrl,
  kindForCategories,
  kindForCategory,
} from "../../modules/illustrations/svg";

interface Catalog {
  categories: string[];
  products: {
    title: string;
    name: string;
    price: number;
    shippingCost: number;
    stock: number;
    description: string;
    categories: string[];
  }[];
  sales: {
    description: string;
    percentage: number;
    day: string;
    productAmount: number;
    categoryId: number;
    productId: number;
  }[];
}

export function readCatalog(): Catalog {
  return JSON.parse(readFileSync(join(serverDir, "src/db/seed/catalog.json"), "utf8")) as Catalog;
}

export const DEMO_LOGINS = {
  admin: { email: "admin@voltio.test", password: "Admin1234!" },
  shopper: { email: "shopper@voltio.test", password: "Shopper1234!" },
} as const;

/** The words shown on a product's pictures: its brand, or the first word of its title. */
function imageLabel(title: string): string {
  return title.replace(/^(Newest|Microsoft Authorized Refurbished-)\s+/i, "").split(/\s+/)[0] ?? title;
}

/**
 * Seeds the demo store: catalogue, sales, networks, an admin (id 1) and a shopper with an address and a few
 * finished orders. One transaction, and only into an empty store, so a restart never duplicates anything.
 * Returns false when the store already had data.
 */
export async function seedDemoStore(db: Db): Promise<boolean> {
  const catalog = readCatalog();
  const [adminHash, shopperHash] = await Promise.all([
    hashPassword(DEMO_LOGINS.admin.password),
    hashPassword(DEMO_LOGINS.shopper.password),
  ]);
  return db.transaction(async (tx) => {
    // Serialises two seeders racing on one PostgreSQL database.
    await tx.execute(sql`select pg_advisory_xact_lock(4242)`);
    const [existing] = await tx.select({ n: count() }).from(categories);
    if ((existing?.n ?? 0) > 0) return false;

    const categoryRows = await tx
      .insert(categories)
      .values(
        catalog.categories.map((name) => ({ name, image: categoryIllustrationUrl(kindForCategory(name)) })),
      )
      .returning({ id: categories.id, name: categories.name });
    const categoryId = new Map(categoryRows.map((c) => [c.name, c.id]));

    const productRows = await tx
      .insert(products)
      .values(
        catalog.products.map((p) => ({
          title: p.title.trim(),
          name: p.name.trim(),
          priceCents: toCents(p.price),
          shippingCostCents: toCents(p.shippingCost),
          stock: p.stock,
          description: storedDescription(p.description),
        })),
      )
      .returning({ id: products.id });

    const images: (typeof productImages.$inferInsert)[] = [];
    const links: (typeof productCategories.$inferInsert)[] = [];
    catalog.products.forEach((p, index) => {
      const productId = productRows[index]!.id;
      const kind = kindForCategories(p.categories);
      const label = imageLabel(p.title);
      // 2–4 pictures, so the detail page's slider has something to slide: one palette per product, a
      // different view per picture, and a background that changes between neighbours of one kind.
      const pictures = 2 + (productId % 3);
      for (let position = 0; position < pictures; position++) {
        const background = (Math.floor(productId / 6) + Math.floor(position / 3)) % 3;
        images.push({
          productId,
          position,
          url: illustrationUrl(kind, background * 18 + (productId % 6) * 3 + (position % 3), label),
          altText: `${p.title.trim()} – picture ${position + 1}`,
        });
      }
      for (const name of new Set(p.categories)) links.push({ productId, categoryId: categoryId.get(name)! });
    });
    await tx.insert(productImages).values(images);
    await tx.insert(productCategories).values(links);
    await seedCatalogStructure(
      tx as unknown as Db,
      productRows.map((row) => row.id),
      catalog.products.map((p) => p.categories),
      categoryId,
    );

    for (const s of catalog.sales) {
      const day = normalizeSaleDay(s.day);
      if (!day) throw new Error(`catalog.json: sale "${s.description}" has an unknown day "${s.day}"`);
      const [sale] = await tx
        .insert(sales)
        .values({
          description: s.description,
          percentage: s.percentage,
          day,
          productAmount: s.productAmount,
          image: categoryIllustrationUrl(
            s.categoryId
              ? kindForCategory(catalog.categories[s.categoryId - 1]!)
              : s.productId
                ? "peripheral"
                : "gaming",
          ),
        })
        .returning({ id: sales.id });
      if (s.categoryId)
        await tx.insert(saleCategories).values({ saleId: sale!.id, categoryId: s.categoryId });
      if (s.productId) await tx.insert(saleProducts).values({ saleId: sale!.id, productId: s.productId });
    }

    await tx.insert(networks).values({
      id: 1,
      facebook: "https://facebook.com/voltio.store",
      twitter: "",
      instagram: "https://instagram.com/voltio.store",
    });

    const [admin] = await tx
      .insert(users)
      .values({
        id: 1,
        firstName: "Ada",
        lastName: "Admin",
        email: DEMO_LOGINS.admin.email,
        passwordHash: adminHash,
        rol: "admin",
      })
      .returning({ id: users.id });
    // The admin was inserted with an explicit id: move the sequence past it.
    await tx.execute(sql`select setval(pg_get_serial_sequence('users', 'id'), (select max(id) from users))`);
    const [shopper] = await tx
      .insert(users)
      .values({
        firstName: "Sam",
        lastName: "Shopper",
        email: DEMO_LOGINS.shopper.email,
        passwordHash: shopperHash,
        newsletterSubscription: true,
      })
      .returning({ id: users.id });
    const address = {
      city: "Springfield",
      street: "Evergreen Terrace",
      streetNumber: 742,
      floor: null,
      unit: null,
      postalCode: "49007",
    };
    await tx.insert(directions).values({ userId: shopper!.id, ...address });

    await seedPurchaseHistory(tx as unknown as Db, shopper!.id, address);
    return admin?.id === 1;
  });
}

/**
 * A finished bulk purchase of two products and a finished single purchase, a few days back, each paid through
 * the sandbox like a real one (a paid checkout, its payment and the sandbox's charge), so they have a number,
 * an order page and a receipt, and the owner can refund them.
 */
async function seedPurchaseHistory(db: Db, userId: number, address: ShippingAddress): Promise<void> {
  const rows = await db.query.products.findMany({
    where: (p, { inArray }) => inArray(p.id, [19, 48, 54]),
    columns: { id: true, title: true, priceCents: true, shippingCostCents: true },
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const day = 24 * 60 * 60 * 1000;
  const bulkDate = new Date(Date.now() - 12 * day);
  const singleDate = new Date(Date.now() - 3 * day);
  const mouse = byId.get(19)!;
  const monitor = byId.get(48)!;
  const laptop = byId.get(54)!;
  const line = (product: typeof mouse, date: Date, extra: Partial<typeof orders.$inferInsert>) => ({
    userId,
    productId: product.id,
    status: "finished" as const,
    amount: 1,
    unitPriceCents: product.priceCents,
    lineTotalCents: product.priceCents,
    shippingCostCents: product.shippingCostCents,
    discountedUnits: 0,
    serverPurchaseDate: date,
    localPurchaseDate: date.toString(),
    shippingAddress: address,
    ...extra,
  });

  /** A paid sandbox checkout of these lines: what the store's books and the sandbox's would hold. */
  const paidCheckout = async (paid: (typeof mouse)[], date: Date, paymentId: string) => {
    const { totalCents } = checkoutTotals(
      paid.map((product) => ({
        title: product.title,
        amount: 1,
        unitPriceCents: product.priceCents,
        lineTotalCents: product.priceCents,
        shippingCents: product.shippingCostCents,
        salePercentage: null,
        discountedUnits: 0,
      })),
    );
    const [checkout] = await db
      .insert(checkouts)
      .values({
        userId,
        provider: "sandbox",
        providerCheckoutId: `sbx_ch_${paymentId}`,
        status: "paid",
        orderIds: [],
        bulkOrderIds: [],
        amountCents: totalCents,
        baseUrl: "http://localhost:3000",
        shippingAddress: address,
        providerPaymentId: paymentId,
        expiresAt: date,
        createdAt: date,
      })
      .returning({ id: checkouts.id });
    await db.insert(sandboxCharges).values({
      id: `sbx_ch_${paymentId}`,
      reference: String(checkout!.id),
      amountCents: totalCents,
      description: paid.map((product) => product.title).join(", "),
      successUrl: "http://localhost:3000/purchase/success",
      failureUrl: "http://localhost:3000/purchase/failure",
      status: "approved",
      paymentId,
    });
    await db.insert(payments).values({
      provider: "sandbox",
      providerPaymentId: paymentId,
      status: "approved",
      amountCents: totalCents,
      checkoutId: checkout!.id,
      createdAt: date,
    });
    return checkout!.id;
  };

  const bulkCheckout = await paidCheckout([mouse, monitor], bulkDate, "sbx_pay_demo_bulk_1");
  const [bulk] = await db
    .insert(bulkOrders)
    .values({
      userId,
      status: "finished",
      combinedPriceCents: mouse.priceCents + monitor.priceCents,
      combinedShippingCostCents: mouse.shippingCostCents + monitor.shippingCostCents,
      purchaseId: "sbx_pay_demo_bulk_1",
      serverPurchaseDate: bulkDate,
      localPurchaseDate: bulkDate.toString(),
      shippingAddress: address,
      checkoutId: bulkCheckout,
    })
    .returning({ id: bulkOrders.id });
  const bulkLines = [mouse, monitor].map((product) =>
    line(product, bulkDate, {
      bulkOrderId: bulk!.id,
      purchaseId: "sbx_pay_demo_bulk_1",
      checkoutId: bulkCheckout,
    }),
  );
  const singleCheckout = await paidCheckout([laptop], singleDate, "sbx_pay_demo_order_1");
  const inserted = await db
    .insert(orders)
    .values([
      ...bulkLines,
      line(laptop, singleDate, { purchaseId: "sbx_pay_demo_order_1", checkoutId: singleCheckout }),
    ])
    .returning({ id: orders.id, bulkOrderId: orders.bulkOrderId });
  const single = inserted.find((row) => row.bulkOrderId === null)!;
  await db
    .update(checkouts)
    .set({ bulkOrderIds: [bulk!.id] })
    .where(sql`${checkouts.id} = ${bulkCheckout}`);
  await db
    .update(checkouts)
    .set({ orderIds: [single.id] })
    .where(sql`${checkouts.id} = ${singleCheckout}`);
}
